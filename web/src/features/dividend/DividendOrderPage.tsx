import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { displayName } from '@/domain/market/format';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import { type DividendReceipt, useReceipts } from './api';
import { positive, receiptTotals } from './format';
import { DividendNav, Row } from './parts';
import { useDividendT } from './texts';
import './dividend.css';

function Receipt({ r }: { r: DividendReceipt }) {
  const dt = useDividendT();
  const stock = r.kind === 'stock';
  return (
    <div className="record" data-testid="dividend-receipt" data-order-no={r.orderNo} data-kind={r.kind} data-status={r.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{displayName(r, currentLang())}</span> <span className="num">{r.symbol}</span> <span className="muted">{stock ? dt('stock') : dt('cash')}</span>
        </span>
        <span className={`badge badge-${r.status}`} data-testid="dividend-receipt-status">
          {dt(r.status === 'completed' ? 'status.completed' : 'status.pending')}
        </span>
      </div>
      <Row label={dt('period')}>{r.period}</Row>
      <Row label={dt('exDate')}>{r.exDate}</Row>
      <Row label={dt('payDate')}>{r.payDate}</Row>
      <Row label={dt('shares')}>{dt('sharesUnit', { n: r.shares })}</Row>
      {stock ? (
        <>
          <Row label={dt('stock')}>{dt('perShare', { v: r.stock })}</Row>
          <Row label={dt('newShares')} testId="dividend-receipt-amount">
            {dt('sharesUnit', { n: r.amount })}
          </Row>
        </>
      ) : (
        <>
          <Row label={dt('cash')}>{dt('perShare', { v: r.cash })}</Row>
          <Row label={dt('gross')}>{money(r.gross)}</Row>
          {positive(r.fractionCash) ? <Row label={dt('fraction')}>{money(r.fractionCash)}</Row> : null}
          {positive(r.nhi) ? <Row label={dt('nhi')}>−{money(r.nhi)}</Row> : null}
          {positive(r.fee) ? <Row label={dt('fee')}>−{money(r.fee)}</Row> : null}
          <Row label={dt('net')} testId="dividend-receipt-amount">
            {money(r.amount)}
          </Row>
        </>
      )}
    </div>
  );
}

/** /common/dividendOrder: the member's dividends, expected and paid, and the rules that computed them. */
export default function DividendOrderPage() {
  const dt = useDividendT();
  const q = useReceipts();
  const d = q.data;
  const totals = receiptTotals(d?.items ?? []);
  return (
    <Page title={dt('receipts')} testId="dividend-order-page">
      <DividendNav here="/common/dividendOrder" />
      <PullRefresh onRefresh={() => q.refetch()}>
        {d ? (
          <div className="dividend-totals" data-testid="dividend-totals">
            <div>
              <span className="muted">{dt('status.completed')}</span>
              <b className="num">{money(totals.paid)}</b>
              {totals.shares > 0 ? <span className="num">{dt('sharesUnit', { n: totals.shares })}</span> : null}
            </div>
            <div>
              <span className="muted">{dt('status.pending')}</span>
              <b className="num">{money(totals.expected)}</b>
              {totals.sharesExpected > 0 ? <span className="num">{dt('sharesUnit', { n: totals.sharesExpected })}</span> : null}
            </div>
          </div>
        ) : null}
        <div className="record-list" data-testid="dividend-receipts">
          {q.isPending ? (
            <ListLoading />
          ) : !d || d.items.length === 0 ? (
            <ListEmpty text={dt('receiptsEmpty')} />
          ) : (
            d.items.map((r) => <Receipt key={`${r.orderNo}/${r.kind}`} r={r} />)
          )}
        </div>
        {d ? (
          <section className="dividend-rules" data-testid="dividend-rules">
            <h3>{dt('rulesTitle')}</h3>
            <p>{dt('rules', { par: d.par.replace(/\.00$/, ''), threshold: money(d.nhiThreshold), rate: d.nhiRate, fee: d.remittanceFee.replace(/\.00$/, '') })}</p>
          </section>
        ) : null}
      </PullRefresh>
    </Page>
  );
}
