import { Button } from 'antd-mobile';
import { LeftOutline, RightOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { money, taipeiTime } from '@/lib/filters';
import { useFundLineLabel } from '@/lib/fundLines';
import { type Statement, useStatement } from './api';
import { type CsvLabels, download, fundsCsv, shiftMonth, taipeiMonth, tradesCsv } from './statement';
import { useWalletFeatureT, type WalletFeatureKey } from './texts';
import './wallet.css';

const CORE_TYPES = ['deposit', 'withdraw', 'exchange', 'credit'];

function useLabels(): CsvLabels {
  const t = useWalletFeatureT();
  const line = useFundLineLabel();
  const known = (prefix: string, v: string, keys: readonly string[]) => (keys.includes(v) ? t(`${prefix}.${v}` as WalletFeatureKey) : v);
  return {
    col: (k) => t(`statement.col.${k}` as WalletFeatureKey),
    type: (v) => (CORE_TYPES.includes(v) ? t(`statement.type.${v}` as WalletFeatureKey) : (line(v) ?? v)),
    status: (v) => known('statement.status', v, ['pending', 'approved', 'rejected', 'completed']),
    side: (v) => known('statement.side', v, ['buy', 'sell']),
  };
}

function Body({ st, month }: { st: Statement; month: string }) {
  const t = useWalletFeatureT();
  const l = useLabels();
  return (
    <>
      <div className="card" data-testid="stmt-cash">
        <strong>{t('statement.cash')}</strong>
        <div className="stmt-cash">
          <span />
          <span className="muted">{t('statement.opening')}</span>
          <span className="muted">{t('statement.change')}</span>
          <span className="muted">{t('statement.closing')}</span>
          {st.cash.map((c) => (
            <div key={c.currency} style={{ display: 'contents' }} data-testid={`stmt-cash-${c.currency}`} data-opening={c.opening} data-closing={c.closing}>
              <span>{c.currency}</span>
              <span className="num">{money(c.opening)}</span>
              <span className="num">{money(c.change)}</span>
              <span className="num">{money(c.closing)}</span>
            </div>
          ))}
        </div>
      </div>
      <div className="stmt-csv">
        <Button size="small" onClick={() => download(`statement-${month}-funds.csv`, fundsCsv(st, l))} data-testid="stmt-csv-funds">
          {t('statement.csvFunds')}
        </Button>
        <Button size="small" onClick={() => download(`statement-${month}-trades.csv`, tradesCsv(st, l))} data-testid="stmt-csv-trades">
          {t('statement.csvTrades')}
        </Button>
      </div>
      {st.truncated ? <div className="card muted">{t('statement.truncated')}</div> : null}
      <div className="card" data-testid="stmt-totals">
        <strong>{t('statement.totals')}</strong>
        {st.totals.map((x) => (
          <div key={`${x.currency}/${x.type}`} className="stmt-row" data-testid="stmt-total" data-type={x.type}>
            <span>
              {l.type(x.type)} · {x.currency}
            </span>
            <span className="num">{money(x.amount)}</span>
          </div>
        ))}
      </div>
      <div className="card" data-testid="stmt-lines">
        <strong>{t('statement.lines')}</strong>
        {st.lines.length === 0 ? (
          <ListEmpty text={t('statement.noLines')} />
        ) : (
          st.lines.map((x, i) => (
            <div key={`${x.seq}/${i}`} className="stmt-row" data-testid="stmt-line" data-type={x.type} data-amount={x.amount}>
              <span>
                {l.type(x.type)}{' '}
                {x.symbol ? (
                  <>
                    {x.symbol} <span data-testid="quote-name">{x.remark}</span>
                  </>
                ) : null}{' '}
                <span className="muted">{taipeiTime(x.createdAt)}</span>
              </span>
              <span className="num">
                {x.currency.includes(':') ? x.amount : money(x.amount)} <span className="muted">{l.status(x.status)}</span>
              </span>
            </div>
          ))
        )}
      </div>
      <div className="card" data-testid="stmt-trades">
        <strong>{t('statement.trades')}</strong>
        {st.trades.length === 0 ? (
          <ListEmpty text={t('statement.noTrades')} />
        ) : (
          st.trades.map((x, i) => (
            <div key={`${x.orderNo}/${i}`} className="stmt-row" data-testid="stmt-trade" data-order-no={x.orderNo}>
              <span>
                <span data-testid="quote-name">{x.name || x.symbol}</span> {l.side(x.side)} {x.shares} <span className="muted">{taipeiTime(x.at)}</span>
              </span>
              <span className="num">
                {money(x.amount)}
                <span className="muted">
                  {' '}
                  {t('statement.fee')} {money(x.fee)} · {t('statement.tax')} {money(x.tax)}
                </span>
              </span>
            </div>
          ))
        )}
      </div>
    </>
  );
}

/** The monthly statement (對帳單): a Taipei month's cash, fund records and fills, with CSV export. */
export default function StatementPage() {
  const t = useWalletFeatureT();
  const now = taipeiMonth(new Date());
  const [month, setMonth] = useState(now);
  const q = useStatement(month);
  const [y, m] = month.split('-');
  return (
    <Page title={t('statement.title')} testId="statement-page">
      <div className="card stmt-nav">
        <Button size="small" fill="none" aria-label={t('statement.prev')} onClick={() => setMonth(shiftMonth(month, -1))} data-testid="stmt-prev">
          <LeftOutline />
        </Button>
        <strong data-testid="stmt-month" data-month={month}>
          {t('statement.month', { year: y, month: Number(m) })}
        </strong>
        <Button
          size="small"
          fill="none"
          aria-label={t('statement.next')}
          disabled={month >= now}
          onClick={() => setMonth(shiftMonth(month, 1))}
          data-testid="stmt-next"
        >
          <RightOutline />
        </Button>
      </div>
      {q.isPending ? <ListLoading /> : q.data ? <Body st={q.data} month={month} /> : null}
    </Page>
  );
}
