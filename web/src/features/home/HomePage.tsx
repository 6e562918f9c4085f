import { BillOutline, FileOutline, PayCircleOutline, SearchOutline } from 'antd-mobile-icons';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { BrandLogo } from '@/components/BrandLogo';
import { useAppConfig } from '@/lib/config';
import { money } from '@/lib/filters';
import { useSession } from '@/lib/session';
import { useUserInfo } from '@/lib/user';

interface Shortcut {
  key: 'deposit' | 'fundRecords' | 'opsDeposits' | 'auditTimeline';
  to: string;
  icon: ComponentType<{ className?: string }>;
}

/** Home shortcuts whose features exist; the others of the spec arrive with their issues. */
function shortcutsFor(role: string): Shortcut[] {
  const list: Shortcut[] = [
    { key: 'deposit', to: '/user/recharge', icon: PayCircleOutline },
    { key: 'fundRecords', to: '/user/FundingDetails', icon: BillOutline },
  ];
  if (role === 'ops') list.push({ key: 'opsDeposits', to: '/ops/deposits', icon: FileOutline });
  if (role === 'auditor') list.push({ key: 'auditTimeline', to: '/audit/timeline', icon: SearchOutline });
  return list;
}

export default function HomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const info = useUserInfo();
  const config = useAppConfig();
  const total = info.data?.assets.total;
  return (
    <div className="page" data-testid="home-page">
      <div className="home-head">
        <BrandLogo className="home-logo" />
        <div className="home-title">{config.data?.title || t('common.appName')}</div>
      </div>
      <div className="page-body">
        <div className="asset-card">
          <div className="asset-label">{t('home.greeting', { account: session.account })}</div>
          <div className="asset-label" style={{ marginTop: '0.1rem' }}>
            {t('home.totalAssets')} ({t('common.currency')})
          </div>
          <div className="asset-total num" data-testid="home-total">
            {total === undefined ? '--' : money(total)}
          </div>
        </div>
        <div className="card">
          <div className="section-title">{t('home.shortcuts')}</div>
          <div className="shortcuts">
            {shortcutsFor(session.role).map((s) => (
              <AppLink key={s.key} to={s.to} className="shortcut" data-testid={`shortcut-${s.key}`}>
                <span className="shortcut-icon">
                  <s.icon />
                </span>
                <span>{t(`home.${s.key}`)}</span>
              </AppLink>
            ))}
          </div>
        </div>
        <div className="card">
          <div className="section-title">{t('home.noticeTitle')}</div>
          <div className="muted" style={{ fontSize: '0.13rem', lineHeight: 1.7 }}>
            {t('home.notice')}
          </div>
        </div>
      </div>
    </div>
  );
}
