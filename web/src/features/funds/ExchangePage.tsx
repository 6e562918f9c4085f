import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, ApiError, type BodyOf } from '@/lib/api/client';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type WalletKey, useWalletT } from '@/domain/wallet/texts';
import { walletKeys } from '@/domain/wallet/keys';
import { fundKeys } from './api';
import { clock, countdown, quoteDeadline } from './countdown';
import { availableIn, type CurrencyBalance, type Quote, useBalances } from './walletApi';
import { amountIn, CURRENCIES, type ExchangeValues, minorUnits, pairAllowed, validateExchange } from './walletValidation';
import '@/domain/wallet/wallet.css';

function Balances({ items }: { items: CurrencyBalance[] | undefined }) {
  const w = useWalletT();
  return (
    <div className="card" data-testid="exchange-balances">
      <div className="section-title">{w('exchange.balances')}</div>
      <div className="balance-grid">
        {CURRENCIES.map((c) => {
          const b = items?.find((x) => x.currency === c);
          return (
            <div key={c} className="balance-cell" data-testid={`balance-${c}`} data-available={b?.available ?? ''}>
              <span className="balance-code">{c}</span>
              <span className="num">{b ? amountIn(b.available, c) : '--'}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function CurrencySelect(p: { label: string; testId: string; value: string; onChange: (c: string) => void; disabled?: (c: string) => boolean; invalid?: boolean }) {
  const w = useWalletT();
  return (
    <label className={p.invalid ? 'field invalid currency-field' : 'field currency-field'}>
      <span className="field-label">{p.label}</span>
      <select className="field-input currency-select" data-testid={p.testId} value={p.value} onChange={(e) => p.onChange(e.target.value)}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c} disabled={p.disabled?.(c)}>
            {`${c} ${w(`exchange.currency.${c}` as WalletKey)}`}
          </option>
        ))}
      </select>
    </label>
  );
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [active]);
  return now;
}

/** Remittance conversion: balances, a quote locked for 30 s with its countdown, then confirm. */
export default function ExchangePage() {
  const w = useWalletT();
  const qc = useQueryClient();
  const balances = useBalances();
  const [v, setV] = useState<ExchangeValues>({ from: 'TWD', to: 'USD', amount: '' });
  const [err, setErr] = useState<FieldError | null>(null);
  const [quote, setQuote] = useState<(Quote & { deadline: number }) | null>(null);
  const now = useNow(quote !== null);
  const left = quote ? countdown(quote.deadline, now) : null;
  const expired = left !== null && left.total === 0;
  const available = availableIn(balances.data, v.from);

  const change = (next: Partial<ExchangeValues>) => {
    setV((p) => ({ ...p, ...next }));
    setQuote(null);
    setErr(null);
  };
  const setFrom = (from: string) => {
    // Keep the pair valid: the two sides differ, and INR goes with USD only.
    let to = v.to === from ? v.from : v.to;
    if (to === from || !pairAllowed(from, to)) to = from === 'USD' ? 'TWD' : 'USD';
    change({ from, to });
  };

  const ask = useAction((body: BodyOf<'/api/vue/funds/exchange/quote'>, key) => api.post('/api/vue/funds/exchange/quote', body, { idempotencyKey: key }), {
    onSuccess: (q) => setQuote({ ...q, deadline: quoteDeadline(q.expiresAt, Date.now()) }),
  });
  const execute = useAction((body: BodyOf<'/api/vue/funds/exchange'>, key) => api.post('/api/vue/funds/exchange', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(w('exchange.done'));
      setQuote(null);
      setV((p) => ({ ...p, amount: '' }));
      void qc.invalidateQueries({ queryKey: walletKeys.balances });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
      void qc.invalidateQueries({ queryKey: fundKeys.recordsAll });
    },
    onError: (e) => {
      // The server's clock decides: an expired or used quote is dropped for a new one.
      if (e instanceof ApiError && (e.msg === 'exchange_quote_expired' || e.msg === 'exchange_quote_used' || e.msg === 'exchange_quote_not_found')) setQuote(null);
    },
  });

  const requestQuote = (e?: FormEvent) => {
    e?.preventDefault();
    const fe = validateExchange(v, available);
    setErr(fe);
    if (!fe) ask.run({ from: v.from, to: v.to, amount: v.amount.trim() });
  };

  return (
    <Page title={w('exchange.title')} testId="exchange-page">
      {balances.isPending ? <ListLoading /> : <Balances items={balances.data} />}
      <form onSubmit={requestQuote} noValidate data-testid="exchange-form" className="card">
        <div className="currency-pair">
          <CurrencySelect label={w('exchange.from')} testId="exchange-from" value={v.from} onChange={setFrom} />
          <button type="button" className="swap-btn" data-testid="exchange-swap" aria-label={w('exchange.swap')} onClick={() => change({ from: v.to, to: v.from })}>
            ⇄
          </button>
          <CurrencySelect label={w('exchange.to')} testId="exchange-to" value={v.to} onChange={(to) => change({ to })} disabled={(c) => c === v.from || !pairAllowed(v.from, c)} invalid={err?.field === 'to'} />
        </div>
        <TextField
          label={`${w('exchange.amount')} (${v.from})`}
          testId="exchange-amount"
          value={v.amount}
          onChange={(s) => change({ amount: s.replace(minorUnits(v.from) === 0 ? /\D/g : /[^\d.]/g, '') })}
          placeholder={w('exchange.amountPlaceholder')}
          inputMode={minorUnits(v.from) === 0 ? 'numeric' : 'decimal'}
          maxLength={18}
          invalid={err?.field === 'amount'}
        />
        <div className="muted wallet-available" data-testid="exchange-available" data-available={available}>
          {w('exchange.available', { amount: `${v.from} ${amountIn(available, v.from)}` })}
        </div>
        <div className="proof-hint">{w('exchange.inrNote')}</div>
        <div className="proof-hint">{w('exchange.noFee')}</div>
        <FormError errorKey={err?.key ?? null} />
        {quote ? (
          <div className="quote-box" data-testid="exchange-quote" data-quote-id={quote.quoteId} data-expired={expired}>
            <div className="record-row">
              <span className="muted">{w('exchange.rate')}</span>
              <span className="num" data-testid="quote-rate">
                {w('exchange.rateValue', { from: quote.from, rate: quote.rate, to: quote.to })}
              </span>
            </div>
            <div className="record-row">
              <span className="muted">{w('exchange.toAmount')}</span>
              <strong className="num" data-testid="quote-to-amount" data-value={quote.toAmount}>
                {`${quote.to} ${amountIn(quote.toAmount, quote.to)}`}
              </strong>
            </div>
            <div className={expired ? 'quote-countdown expired' : 'quote-countdown'} data-testid="quote-countdown" data-seconds={left?.total ?? 0}>
              {expired ? w('exchange.expired') : w('exchange.expiresIn', { time: `${left && left.days > 0 ? `${w('countdown.days', { count: left.days })} ` : ''}${left ? clock(left) : ''}` })}
            </div>
          </div>
        ) : null}
        {quote && !expired ? (
          <Button block color="primary" size="large" shape="rounded" loading={execute.pending} data-testid="exchange-confirm" onClick={() => execute.run({ quoteId: quote.quoteId })}>
            {w('exchange.confirm')}
          </Button>
        ) : (
          <Button block color="primary" size="large" shape="rounded" type="submit" loading={ask.pending} data-testid={quote ? 'exchange-requote' : 'exchange-get-quote'}>
            {w(quote ? 'exchange.requote' : 'exchange.getQuote')}
          </Button>
        )}
      </form>
    </Page>
  );
}
