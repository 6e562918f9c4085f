import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { money, taipeiTime } from '@/lib/filters';
import { useFundLineLabel } from '@/lib/fundLines';
import { LoanFigures } from '@/domain/wallet/LoanFigures';
import { useCreditSummary } from '@/domain/wallet/api';
import { useWalletT } from '@/domain/wallet/texts';
import '@/domain/wallet/wallet.css';
import { useWallet, type WalletCurrency } from './api';
import { useWalletFeatureT } from './texts';
import './wallet.css';

/** Why cash is frozen: the wallet's own words for a withdrawal and an order, else the fund record line's label. */
function useReason(): (reason: string) => string {
  const t = useWalletFeatureT();
  const line = useFundLineLabel();
  return (reason) =>
    reason === 'withdraw' || reason === 'trade' ? t(`walletPage.reason.${reason}`) : (line(reason) ?? t('walletPage.reason.other'));
}

function CurrencyCard({ c }: { c: WalletCurrency }) {
  const t = useWalletFeatureT();
  const reason = useReason();
  const unexplained = !/^-?0(\.0+)?$/.test(c.unexplained);
  return (
    <div className="card wallet-cur" data-testid={`wallet-${c.currency}`} data-available={c.available} data-frozen={c.frozen}>
      <div className="wallet-cur-head">
        <strong>{c.currency}</strong>
      </div>
      <div className="kv">
        <span>{t('walletPage.available')}</span>
        <span className="num" data-testid={`wallet-available-${c.currency}`}>
          {money(c.available)}
        </span>
      </div>
      <div className="kv">
        <span>{t('walletPage.frozen')}</span>
        <span className="num" data-testid={`wallet-frozen-${c.currency}`}>
          {money(c.frozen)}
        </span>
      </div>
      {c.holds.length > 0 || unexplained ? (
        <div className="wallet-holds" data-testid={`wallet-holds-${c.currency}`}>
          <div className="muted">{t('walletPage.holds')}</div>
          {c.holds.map((h) => (
            <div key={`${h.ref}/${h.reason}`} className="wallet-hold" data-testid="wallet-hold" data-reason={h.reason} data-ref={h.ref} data-amount={h.amount}>
              <div className="wallet-hold-main">
                <span data-testid="wallet-hold-reason">{reason(h.reason)}</span>
                <span className="num">{money(h.amount)}</span>
              </div>
              <div className="muted wallet-hold-ref">
                <span className="num">{h.ref}</span> · {t('walletPage.since', { at: taipeiTime(h.since) })}
              </div>
            </div>
          ))}
          {unexplained ? (
            <div className="wallet-hold" data-testid="wallet-hold" data-reason="">
              <div className="wallet-hold-main">
                <span>{t('walletPage.unexplained')}</span>
                <span className="num">{money(c.unexplained)}</span>
              </div>
            </div>
          ) : null}
        </div>
      ) : (
        <div className="muted">{t('walletPage.noHolds')}</div>
      )}
    </div>
  );
}

/** The member's loans: how many are outstanding, debt with accrued interest, loanable and borrowed, and the way to borrow or repay. */
function LoansCard({ go }: { go: (to: string) => () => void }) {
  const w = useWalletT();
  const q = useCreditSummary();
  const s = q.data;
  return (
    <div className="card wallet-loans" data-testid="wallet-loans" data-outstanding={s?.outstanding ?? ''}>
      <div className="wallet-cur-head">
        <strong>{w('loans.title')}</strong>
        <span className="muted">
          {w('loans.outstanding')} <span className="num" data-testid="wallet-loans-outstanding">{s ? s.outstanding : '--'}</span>
        </span>
      </div>
      <LoanFigures s={s} prefix="wallet" />
      <div className="wallet-actions">
        <Button size="small" color="primary" fill="outline" onClick={go('/credit/borrow')} data-testid="wallet-borrow">
          {w('loans.borrow')}
        </Button>
      </div>
    </div>
  );
}

/** The wallet: cash per currency, each hold on it and why; deposit, withdraw, exchange, records, statement. */
export default function WalletPage() {
  const t = useWalletFeatureT();
  const navigate = useNavigate();
  const q = useWallet();
  const go = (to: string) => () => void navigate(to);
  return (
    <Page title={t('walletPage.title')} testId="wallet-page">
      <div className="wallet-actions">
        <Button size="small" color="primary" onClick={go('/user/recharge')} data-testid="wallet-deposit">
          {t('walletPage.deposit')}
        </Button>
        <Button size="small" onClick={go('/user/withdraw')} data-testid="wallet-withdraw">
          {t('walletPage.withdraw')}
        </Button>
        <Button size="small" onClick={go('/user/exchange')} data-testid="wallet-exchange">
          {t('walletPage.exchange')}
        </Button>
        <Button size="small" onClick={go('/user/FundingDetails?tab=all')} data-testid="wallet-records">
          {t('walletPage.records')}
        </Button>
        <Button size="small" onClick={go('/user/pj')} data-testid="wallet-statement">
          {t('walletPage.statement')}
        </Button>
      </div>
      {q.isPending ? (
        <ListLoading />
      ) : !q.data || q.data.currencies.length === 0 ? (
        <ListEmpty text={t('walletPage.empty')} />
      ) : (
        q.data.currencies.map((c) => <CurrencyCard key={c.currency} c={c} />)
      )}
      <LoansCard go={go} />
    </Page>
  );
}
