import { useQuery } from '@tanstack/react-query';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { api } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { type WalletKey, useWalletT } from '@/domain/wallet/texts';
import { useCreditRule } from '@/domain/wallet/api';
import '@/domain/wallet/wallet.css';

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The member's last credit score changes, each with its reason (fund records of type credit). */
function History() {
  const w = useWalletT();
  const q = useQuery({
    queryKey: ['funds', 'records', 'credit', 'rule-page'],
    queryFn: ({ signal }) => api.get('/api/vue/funds/records', { query: { type: 'credit', page: 1, size: 50 }, signal }),
  });
  const items = q.data?.items ?? [];
  return (
    <div className="card" data-testid="credit-history">
      <div className="section-title">{w('credit.history')}</div>
      {q.isPending ? (
        <ListLoading />
      ) : items.length === 0 ? (
        <ListEmpty />
      ) : (
        items.map((r) => (
          <div key={r.orderNo} className="record-row credit-line" data-testid="credit-change">
            <span>
              <span>{w(`credit.reason.${r.remark}` as WalletKey)}</span>
              <span className="muted credit-time num">{taipeiTime(r.createdAt)}</span>
            </span>
            <span className="num">
              <span className={Number(r.amount) < 0 ? 'down' : 'up'}>{w('credit.delta', { delta: signed(Number(r.amount)) })}</span>
              {r.creditScore !== undefined ? <span className="muted"> · {w('credit.after', { score: r.creditScore })}</span> : null}
            </span>
          </div>
        ))
      )}
    </div>
  );
}

/** The published credit-score rule, the member's score, and every change with its reason. */
export default function CreditRulePage() {
  const w = useWalletT();
  const q = useCreditRule();
  const r = q.data;
  return (
    <Page title={w('credit.title')} testId="credit-rule-page">
      {q.isPending ? (
        <ListLoading />
      ) : !r ? (
        <ListEmpty />
      ) : (
        <>
          <div className="asset-card credit-card">
            <div className="asset-label">{w('credit.score')}</div>
            <div className="asset-total num" data-testid="credit-score">
              {r.score}
            </div>
          </div>
          <div className="card" data-testid="credit-rule">
            <div className="record-row">
              <span className="muted">{w('credit.start')}</span>
              <span className="num" data-testid="credit-start">
                {r.start}
              </span>
            </div>
            <div className="record-row">
              <span className="muted">{w('credit.range')}</span>
              <span className="num">{w('credit.rangeValue', { min: r.min, max: r.max })}</span>
            </div>
            <div className="record-row">
              <span className="muted">{w('credit.threshold')}</span>
              <span data-testid="credit-threshold">{w('credit.thresholdValue', { value: r.withdrawThreshold })}</span>
            </div>
            <div className="section-title credit-changes-title">{w('credit.changes')}</div>
            {r.changes.map((c) => (
              <div key={c.reason} className="record-row" data-testid={`credit-rule-${c.reason}`}>
                <span>{w(`credit.reason.${c.reason}` as WalletKey)}</span>
                <span className={`num ${c.delta < 0 ? 'down' : 'up'}`}>{w('credit.delta', { delta: signed(c.delta) })}</span>
              </div>
            ))}
            <div className="proof-hint">{w('credit.changesNote')}</div>
          </div>
          <History />
        </>
      )}
    </Page>
  );
}
