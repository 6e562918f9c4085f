import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { api, type DataOf } from '@/lib/api/client';
import { money, taipeiTime } from '@/lib/filters';
import { trendClass } from '@/lib/trend';

type TimelineEvent = DataOf<'/api/vue/audit/accounts/{account}/timeline', 'get'>['items'][number];

/** Events per page; the server's balances run across pages, so each page starts where the last ended. */
export const TIMELINE_PAGE_SIZE = 50;

/** The ledger account's translation key: the member's own cash accounts and the house accounts. */
export function ledgerKey(account: string): string | undefined {
  const m = /^member:[^:]+:(available|frozen)$/.exec(account) ?? /^house:([a-z_]+)$/.exec(account);
  return m ? `audit.ledger.${m[1]}` : undefined;
}

type TimelineLine = NonNullable<TimelineEvent['lines']>[number];

const LINE_STATUSES = ['pending', 'approved', 'rejected', 'completed', 'unsettled', 'allotted'] as const;
const isLineStatus = (s: string): s is (typeof LINE_STATUSES)[number] => (LINE_STATUSES as readonly string[]).includes(s);

/** A line's amount in its asset: money in a currency, shares of a security, or plain points without an asset. */
function lineAmount(l: TimelineLine): string {
  if (!l.asset) return l.amount;
  return l.asset.includes(':') ? `${l.asset} ${l.amount}` : `${l.asset} ${money(l.amount)}`;
}

function EventItem({ e }: { e: TimelineEvent }) {
  const { t } = useTranslation();
  const balances = Object.entries(e.balances ?? {});
  return (
    <div className="record timeline-event" data-testid="timeline-event" data-position={e.position} data-type={e.type}>
      <div className="record-row">
        <strong>{e.type}</strong>
        <span className="muted num">
          {t('audit.position')} {e.position}
        </span>
      </div>
      <div className="record-row muted">
        <span className="num">{taipeiTime(e.time)}</span>
        <span>
          {t('audit.actor')}: {e.actor}
        </span>
      </div>
      {e.postings.length ? (
        <div className="postings">
          {e.postings.map((p, i) => (
            <div key={i} className="record-row">
              <span title={p.account}>{t(ledgerKey(p.account) ?? '', { defaultValue: p.account })}</span>
              <span className={`num ${trendClass(p.amount)}`}>
                {p.security ? `${p.security} ${p.amount}` : `${p.currency} ${money(p.amount)}`}
              </span>
            </div>
          ))}
        </div>
      ) : null}
      {e.lines?.length ? (
        <div className="postings" data-testid="timeline-lines">
          <span className="muted">{t('audit.lines')}</span>
          {e.lines.map((l, i) => (
            <div key={i} className="record-row" data-testid="timeline-line" data-type={l.type}>
              <span>{l.type ? `${l.type} ${l.orderNo}` : l.key}</span>
              <span className="num">
                {l.type ? `${lineAmount(l)} ` : ''}
                {isLineStatus(l.status) ? t(`funds.status.${l.status}`) : l.status}
              </span>
            </div>
          ))}
        </div>
      ) : null}
      {balances.length ? (
        <div className="record-row" data-testid="timeline-balance">
          <span className="muted">{t('audit.balanceAfter')}</span>
          <span className="num">
            {balances.map(([cur, b]) => (
              <span key={cur} data-testid={`timeline-balance-${cur}`} data-available={b.available} data-frozen={b.frozen}>
                {t('audit.balanceLine', { currency: cur, available: money(b.available), frozen: money(b.frozen) })}
              </span>
            ))}
          </span>
        </div>
      ) : null}
      <div className="summary">{JSON.stringify(e.summary)}</div>
    </div>
  );
}

/** Auditor: an account's events, replayed, with the balance after each. */
export default function TimelinePage() {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [account, setAccount] = useState('');
  const q = useInfiniteQuery({
    queryKey: ['audit', 'timeline', account],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/api/vue/audit/accounts/{account}/timeline', { params: { account }, query: { cursor: pageParam, size: TIMELINE_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => last.nextCursor,
    enabled: account !== '',
  });
  const items = q.data?.pages.flatMap((pg) => pg.items) ?? [];
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    setAccount(input.trim());
  };
  return (
    <Page title={t('audit.title')} testId="audit-page">
      <form className="audit-search" onSubmit={submit} data-testid="audit-form">
        <input className="ops-remark" data-testid="audit-account" value={input} onChange={(e) => setInput(e.target.value)} placeholder={t('audit.accountPlaceholder')} maxLength={32} />
        <Button color="primary" type="submit" data-testid="audit-search">
          {t('audit.search')}
        </Button>
      </form>
      {!account ? (
        <div className="list-state">{t('audit.hint')}</div>
      ) : q.isPending ? (
        <ListLoading />
      ) : items.length === 0 ? (
        <ListEmpty />
      ) : (
        <>
          <div className="muted" data-testid="audit-count" style={{ margin: '0.04rem 0 0.1rem' }}>
            {t(q.hasNextPage ? 'audit.eventsSoFar' : 'audit.events', { count: items.length })}
          </div>
          {items.map((e) => (
            <EventItem key={e.position} e={e} />
          ))}
          <MoreOnScroll q={q} />
        </>
      )}
    </Page>
  );
}
