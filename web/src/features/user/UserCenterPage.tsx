import { Button, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { money } from '@/lib/filters';
import { useEntries } from '@/lib/entries';
import { EntryBadge } from '@/components/EntryBadge';
import { currentLang } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { trendClass } from '@/lib/trend';
import { FlagNotice } from '@/components/FlagNotice';
import { useRole, useUserInfo } from '@/lib/user';
import { useWalletT } from '@/domain/wallet/texts';
import { useCreditSummary } from '@/domain/wallet/api';
import { LoanFigures } from '@/domain/wallet/LoanFigures';
import '@/domain/wallet/wallet.css';
import { Avatar } from './Avatar';
import { useLogout } from './useLogout';

function Amount({ v, testId, trend }: { v: string | undefined; testId: string; trend?: boolean }) {
  return (
    <div className={`v num ${trend ? trendClass(v) : ''}`} data-testid={testId}>
      {v === undefined ? '--' : money(v)}
    </div>
  );
}

export default function UserCenterPage() {
  const { t } = useTranslation();
  const w = useWalletT();
  const navigate = useNavigate();
  const session = useSession();
  const info = useUserInfo();
  const role = useRole();
  const entries = useEntries('mine');
  const logout = useLogout();
  const a = info.data?.assets;
  const status = info.data?.realNameStatus;
  const go = (to: string) => () => void navigate(to);
  // Money of one's own: members only (staff have no balances, cards or identity to verify).
  const member = role === 'member';
  const credit = useCreditSummary(member);

  return (
    <div className="page" data-testid="usercenter-page">
      <div className="page-body">
        <FlagNotice />
        <div className="asset-card">
          <div className="asset-head">
            {member && info.data ? <Avatar fileId={info.data.avatar} account={info.data.account} /> : null}
            <div className="user-account" data-testid="user-account">
              {info.data?.account ?? session.account}
            </div>
            <button type="button" className={`badge badge-${status ?? 'unverified'}`} data-testid="verification-badge" data-status={status ?? ''} onClick={go('/user/bandCard')}>
              {t(`user.realName.${status ?? 'unverified'}`)}
            </button>
          </div>
          <div className="asset-label" data-testid="asset-total-label" style={{ marginTop: '0.12rem' }}>
            {t('user.totalAssets', { currency: t('common.currency') })}
          </div>
          <div className="asset-total num" data-testid="asset-total">
            {a ? money(a.total) : '--'}
          </div>
          <div className="asset-grid">
            <div>
              <div className="asset-label">{t('user.available')}</div>
              <Amount v={a?.available} testId="asset-available" />
            </div>
            <div>
              <div className="asset-label">{t('user.frozen')}</div>
              <Amount v={a?.frozen} testId="asset-frozen" />
            </div>
            <div>
              <div className="asset-label">{t('user.profit')}</div>
              <Amount v={a?.profit} testId="asset-profit" trend />
            </div>
            <div>
              <div className="asset-label">{t('user.usd')}</div>
              <Amount v={a?.usd} testId="asset-usd" />
            </div>
          </div>
          <div className="asset-actions">
            <Button shape="rounded" className="asset-btn" data-testid="usercenter-deposit" onClick={go('/user/recharge')}>
              {t('user.deposit')}
            </Button>
            {member ? (
              <>
                <Button shape="rounded" className="asset-btn" data-testid="usercenter-withdraw" onClick={go('/user/withdraw')}>
                  {w('mine.withdraw')}
                </Button>
                <Button shape="rounded" className="asset-btn" data-testid="usercenter-exchange" onClick={go('/user/exchange')}>
                  {w('mine.exchange')}
                </Button>
              </>
            ) : null}
          </div>
        </div>

        {member ? (
          <button type="button" className="card mine-loans" data-testid="mine-loans" onClick={go('/credit/borrow')}>
            <div className="muted mine-loans-title">{w('loans.title')}</div>
            <LoanFigures s={credit.data} prefix="mine" />
          </button>
        ) : null}

        <List className="menu" mode="card">
          <List.Item onClick={go('/user/FundingDetails')} data-testid="menu-fund-records">
            {t('user.fundRecords')}
          </List.Item>
          {member ? (
            <>
              <List.Item
                onClick={go('/user/bandCard')}
                data-testid="menu-realname"
                extra={
                  <span className={`badge badge-${status ?? 'unverified'}`} data-testid="menu-realname-status">
                    {t(`user.realName.${status ?? 'unverified'}`)}
                  </span>
                }
              >
                {w('mine.realName')}
              </List.Item>
              <List.Item onClick={go('/user/BankCard')} data-testid="menu-bank-cards">
                {w('mine.bankCards')}
              </List.Item>
              <List.Item onClick={go('/user/exchange')} data-testid="menu-exchange">
                {w('mine.remittance')}
              </List.Item>
              <List.Item
                onClick={go('/user/creditRule')}
                data-testid="menu-credit"
                extra={info.data ? <span data-testid="user-credit-score">{w('mine.creditScoreValue', { score: info.data.creditScore })}</span> : undefined}
              >
                {w('mine.creditScore')}
              </List.Item>
            </>
          ) : null}
          <List.Item onClick={go('/user/loginPassword')} data-testid="menu-login-password">
            {t('user.loginPassword')}
          </List.Item>
          <List.Item
            onClick={go('/user/setPassword')}
            data-testid="menu-fund-password"
            extra={info.data && !info.data.fundPasswordSet ? t('user.fundPasswordNotSet') : undefined}
          >
            {t('user.fundPassword')}
          </List.Item>
          <List.Item onClick={go('/user/language')} data-testid="menu-language" extra={t(`language.${currentLang()}`)}>
            {t('user.language')}
          </List.Item>
          <List.Item onClick={go('/user/setting')} data-testid="menu-setting">
            {t('user.setting')}
          </List.Item>
          {entries.map((e) => (
            <List.Item key={e.key} onClick={go(e.to)} data-testid={`menu-${e.key}`} extra={e.badge ? <EntryBadge entry={e} /> : undefined}>
              {e.text}
            </List.Item>
          ))}
          {info.data?.inviteCode ? (
            <List.Item extra={<span data-testid="user-invite-code">{info.data.inviteCode}</span>}>{t('user.inviteCode')}</List.Item>
          ) : null}
        </List>

        <Button block shape="rounded" className="logout-btn" data-testid="logout" onClick={logout}>
          {t('user.logout')}
        </Button>
      </div>
    </div>
  );
}
