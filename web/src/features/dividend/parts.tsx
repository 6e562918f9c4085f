import type { ReactNode } from 'react';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { displayName } from '@/domain/market/format';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import type { DividendEvent } from './api';
import { positive } from './format';
import { useDividendT } from './texts';

export function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span className="num" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

/** The dividend screens' links to one another. */
export function DividendNav({ here }: { here: string }) {
  const dt = useDividendT();
  const links: [string, string][] = [
    ['/common/dividend', dt('nav.calendar')],
    ['/common/dividend3', dt('nav.exRights')],
    ['/common/dividend2', dt('nav.highYield')],
    ['/common/dividendOrder', dt('nav.receipts')],
  ];
  return (
    <nav className="dividend-nav" data-testid="dividend-nav">
      {links.map(([to, label]) => (
        <AppLink key={to} to={to} className={to === here ? 'active' : ''} data-testid={`dividend-nav-${to.split('/').pop()}`}>
          {label}
        </AppLink>
      ))}
    </nav>
  );
}

/** One distribution: the stock, the dates, the cash and the new shares, the yield at today's price. */
export function EventCard({ e, showName = true }: { e: DividendEvent; showName?: boolean }) {
  const dt = useDividendT();
  return (
    <div className="record" data-testid="dividend-event" data-symbol={e.symbol} data-id={e.id}>
      {showName ? (
        <div className="record-row">
          <AppLink to={`/common/dividendInfo?code=${encodeURIComponent(e.symbol)}`} className="record-amount" data-testid="dividend-event-link">
            <span data-testid="quote-name">{displayName(e, currentLang())}</span> <span className="num">{e.symbol}</span>
          </AppLink>
          <span className="muted">{e.period}</span>
        </div>
      ) : (
        <div className="record-row">
          <span className="record-amount num">{e.period}</span>
          <span className="muted">{e.exDate}</span>
        </div>
      )}
      <Row label={dt('exDate')} testId="dividend-ex-date">
        {e.exDate}
      </Row>
      <Row label={dt('payDate')}>{e.payDate}</Row>
      {positive(e.cash) ? (
        <Row label={dt('cash')} testId="dividend-cash">
          {dt('perShare', { v: e.cash })}
        </Row>
      ) : null}
      {positive(e.stock) ? (
        <Row label={dt('stock')} testId="dividend-stock">
          {dt('perShare', { v: e.stock })} · {dt('perLot', { n: e.sharesPerLot })}
        </Row>
      ) : null}
      <Row label={dt('yield')}>{e.yield}%</Row>
      {e.reference ? <Row label={dt('reference')}>{money(e.reference)}</Row> : null}
    </div>
  );
}

export function EventList({ pending, items, testId }: { pending: boolean; items: readonly DividendEvent[] | undefined; testId: string }) {
  const dt = useDividendT();
  return (
    <div className="record-list" data-testid={testId}>
      {pending ? <ListLoading /> : !items || items.length === 0 ? <ListEmpty text={dt('empty')} /> : items.map((e) => <EventCard key={e.id} e={e} />)}
    </div>
  );
}
