import { SearchOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { LiveNotice } from '@/components/market/LiveNotice';
import { BrandLogo } from '@/components/BrandLogo';
import { EntryIcon } from '@/components/EntryIcon';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { HomeNotice } from '@/components/news/HomeNotice';
import { IndexCards } from '@/components/market/IndexCards';
import { QuoteHead, QuoteRow } from '@/components/market/QuoteRow';
import { useAppConfig } from '@/lib/config';
import { useEntries } from '@/lib/entries';
import { EntryBadge } from '@/components/EntryBadge';
import { money } from '@/lib/filters';
import { useHot, useIndices } from '@/domain/market/api';
import { useLiveQuotes } from '@/domain/market/live';
import { useSession } from '@/lib/session';
import { useUserInfo } from '@/lib/user';

/** How many hot stocks home shows (the full list is /market/stockHot/stockList). */
const HOT_ON_HOME = 10;

export default function HomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const info = useUserInfo();
  const shortcuts = useEntries('home');
  const config = useAppConfig();
  const total = info.data?.assets.total;
  const indices = useIndices();
  const hot = useHot('listed');
  const hotTop = (hot.data ?? []).slice(0, HOT_ON_HOME);
  useLiveQuotes([...(indices.data ?? []), ...hotTop].map((q) => q.symbol));
  return (
    <div className="page" data-testid="home-page">
      <LiveNotice />
      <div className="home-head">
        <BrandLogo className="home-logo" />
        <div className="home-title">{config.data?.title || t('common.appName')}</div>
      </div>
      <div className="page-body">
        <AppLink to="/home/searchIndex" className="home-search" data-testid="home-search">
          <SearchOutline />
          <span>{t('market.searchPlaceholder')}</span>
        </AppLink>
        <IndexCards items={indices.data} loading={indices.isPending} />
        <div className="asset-card">
          <div className="asset-label">{t('home.greeting', { account: session.account })}</div>
          <div className="asset-label" data-testid="home-total-label" style={{ marginTop: '0.1rem' }}>
            {t('home.totalAssets', { currency: t('common.currency') })}
          </div>
          <div className="asset-total num" data-testid="home-total">
            {total === undefined ? '--' : money(total)}
          </div>
        </div>
        <div className="card">
          <div className="section-title">{t('home.shortcuts')}</div>
          <div className="shortcuts">
            {shortcuts.map((s) => (
              <AppLink key={s.key} to={s.to} className="shortcut" data-testid={`shortcut-${s.key}`}>
                <EntryBadge entry={s}>
                  <span className="shortcut-icon">
                    <EntryIcon name={s.icon} />
                  </span>
                </EntryBadge>
                <span>{s.text}</span>
              </AppLink>
            ))}
          </div>
        </div>
        <div className="card flush-card" data-testid="home-hot">
          <div className="section-row">
            <span className="section-title">{t('market.hotTitle')}</span>
            <AppLink to="/market/stockHot/stockList" className="muted more-link" data-testid="home-hot-more">
              {t('market.more')}
            </AppLink>
          </div>
          <QuoteHead />
          {hot.isPending ? <ListLoading /> : hotTop.length === 0 ? <ListEmpty /> : hotTop.map((q, i) => <QuoteRow key={q.symbol} q={q} rank={i + 1} />)}
        </div>
        <HomeNotice />
      </div>
    </div>
  );
}
