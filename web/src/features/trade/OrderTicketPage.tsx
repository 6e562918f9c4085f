import { Button, Dialog } from 'antd-mobile';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { AppLink } from '@/components/AppLink';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { currentLang } from '@/lib/i18n';
import { useQuote } from '@/domain/market/api';
import { displayName, formatPrice } from '@/domain/market/format';
import { useLiveQuotes } from '@/domain/market/live';
import { toast } from '@/lib/toast';
import { useTicketExtras } from '@/lib/ticketExtras';
import { tradeApi, useTradeChanged, useTradeRules, type OrderRequest } from './api';
import { estimate, stepPrice, tickSize, type Kind } from './rules';
import { useTradeT } from '@/domain/trade/texts';
import { useUserInfo } from '@/lib/user';
import { leverageChoices, validateTicket } from './ticket';
import './trade.css';

function Seg<V extends string>({ value, options, onChange, testId }: { value: V; options: { v: V; label: string; cls?: string }[]; onChange: (v: V) => void; testId: string }) {
  return (
    <div className="seg" role="group">
      {options.map((o) => (
        <button key={o.v} type="button" className={o.cls} aria-pressed={value === o.v} data-testid={`${testId}-${o.v}`} onClick={() => onChange(o.v)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

function Kv({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="kv">
      <span>{label}</span>
      <span className="num" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/** The order ticket: /market/marketBuy?symbol=&side=buy|sell */
export default function OrderTicketPage() {
  const t = useTradeT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const symbol = (params.get('symbol') ?? '').trim().toUpperCase();
  const q = useQuote(symbol);
  useLiveQuotes(symbol ? [symbol] : []);
  const rules = useTradeRules();
  const info = useUserInfo();
  const changed = useTradeChanged();

  const [direction, setDirection] = useState<'long' | 'short'>(params.get('side') === 'sell' ? 'short' : 'long');
  const [type, setType] = useState<'limit' | 'market'>('limit');
  const [lotMode, setLotMode] = useState<'board' | 'odd'>('board');
  const [qty, setQty] = useState('1');
  const [price, setPrice] = useState('');
  const [leverage, setLeverage] = useState('1');
  const [dayTrade, setDayTrade] = useState(params.get('dayTrade') === '1');
  const [error, setError] = useState<string>('');

  const d = q.data;
  const kind: Kind = d?.type === 'etf' ? 'etf' : 'stock';
  const oddLot = lotMode === 'odd';
  // The limit starts at the last price once it is known.
  useEffect(() => {
    if (d && price === '') setPrice(formatPrice(d.price).replace(/,/g, ''));
  }, [d, price]);
  const choices = useMemo(() => leverageChoices(direction, oddLot), [direction, oddLot]);
  useEffect(() => {
    if (!choices.includes(leverage)) setLeverage('1');
  }, [choices, leverage]);

  const shares = /^\d+$/.test(qty) ? Number(qty) * (oddLot ? 1 : (rules.data?.boardLot ?? 1000)) : 0;
  const usedPrice = type === 'market' ? (d?.price ?? '') : price;
  const est = useMemo(
    () => (rules.data ? estimate({ price: usedPrice, shares, oddLot, kind, side: direction === 'long' ? 'buy' : 'sell', leverage, dayTrade: dayTrade && !oddLot }, rules.data) : null),
    [rules.data, usedPrice, shares, oddLot, kind, direction, leverage, dayTrade],
  );

  // What other features add to the ticket (a coupon): shown above the submit button, run once the order is placed.
  const extras = useTicketExtras();
  const place = useAction((body: OrderRequest, key: string) => tradeApi.place(body, key), {
    onSuccess: async (r) => {
      await extras.afterPlace(r.orderNo);
      changed();
      toast.show(t('placed', { status: t(`status.${r.status}`) }));
      navigate('/position/position');
    },
  });

  const submit = () => {
    if (!d) return;
    const bad = validateTicket({ type, qty, price, kind, limitUp: d.limitUp, limitDown: d.limitDown });
    if (bad) {
      const o = bad.opts ?? {};
      setError(t(bad.key, o.up ? { down: formatPrice(o.down), up: formatPrice(o.up) } : o));
      return;
    }
    setError('');
    const body: OrderRequest = { symbol, direction, type, ...(oddLot ? { shares: Number(qty) } : { lots: Number(qty) }) };
    if (type === 'limit') body.price = price;
    if (leverage !== '1') body.leverage = leverage;
    if (dayTrade && !oddLot) body.dayTrade = true;
    const side = t(direction === 'long' ? 'buy' : 'sell');
    void Dialog.confirm({
      title: t('confirmTitle'),
      content: t('confirmBody', {
        side,
        name: displayName(d, currentLang()),
        qty: `${qty} ${t(oddLot ? 'shares' : 'lots')}`,
        price: type === 'market' ? t('marketPrice') : price,
        leverage,
        amount: est ? money(est.amount) : '--',
      }),
      confirmText: t('submit'),
      onConfirm: () => place.run(body),
    });
  };

  const title = d ? `${displayName(d, currentLang())} ${d.symbol}` : symbol;
  return (
    <Page title={title} testId="ticket-page" right={<AppLink to="/trade/rules" data-testid="ticket-rules">{t('rules')}</AppLink>}>
      {q.isPending && symbol ? (
        <ListLoading />
      ) : !d ? (
        <ListEmpty text={t('pos.empty')} />
      ) : (
        <div className="card">
          <div className="kv">
            <span>{t('pos.now')}</span>
            <span className="num" data-testid="ticket-last">
              {formatPrice(d.price)}
            </span>
          </div>
          <div className="trade-hint muted num" data-testid="ticket-band">
            {t('band', { down: formatPrice(d.limitDown), up: formatPrice(d.limitUp) })}
          </div>
          <Seg
            value={direction}
            onChange={setDirection}
            testId="ticket"
            options={[
              { v: 'long', label: `${t('buy')} · ${t('long')}`, cls: 'buy' },
              { v: 'short', label: `${t('sell')} · ${t('short')}`, cls: 'sell' },
            ]}
          />
          <Seg value={type} onChange={setType} testId="ticket" options={[{ v: 'limit', label: t('limit') }, { v: 'market', label: t('market') }]} />
          <Seg
            value={lotMode}
            onChange={(v) => {
              setLotMode(v);
              if (v === 'odd') setDirection('long');
            }}
            testId="ticket-mode"
            options={[{ v: 'board', label: t('boardLot') }, { v: 'odd', label: t('oddLot') }]}
          />
          <div className="field-row">
            <label htmlFor="ticket-qty">{t(oddLot ? 'shares' : 'lots')}</label>
            <input id="ticket-qty" data-testid="ticket-qty" inputMode="numeric" value={qty} onChange={(e) => setQty(e.target.value.replace(/\D/g, ''))} />
          </div>
          {type === 'limit' ? (
            <>
              <div className="field-row">
                <label htmlFor="ticket-price">{t('price')}</label>
                <button type="button" className="step" aria-label="-" data-testid="ticket-price-down" onClick={() => setPrice(stepPrice(price || '0', -1, kind))}>
                  −
                </button>
                <input id="ticket-price" data-testid="ticket-price" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value.replace(/[^\d.]/g, ''))} />
                <button type="button" className="step" aria-label="+" data-testid="ticket-price-up" onClick={() => setPrice(stepPrice(price || '0', 1, kind))}>
                  +
                </button>
              </div>
              <div className="trade-hint muted num">{t('tick', { tick: tickSize(price || '0', kind) })}</div>
            </>
          ) : null}
          <div className="field-row">
            <label>{t('leverage')}</label>
            <div className="seg" style={{ flex: 1, margin: 0 }}>
              {choices.map((c) => (
                <button key={c} type="button" aria-pressed={leverage === c} data-testid={`ticket-leverage-${c}`} onClick={() => setLeverage(c)}>
                  {c === '1' ? t('cash') : `${c}×`}
                </button>
              ))}
            </div>
          </div>
          {oddLot ? null : (
            <label className="field-row">
              <input type="checkbox" style={{ flex: 'none' }} data-testid="ticket-daytrade" checked={dayTrade} onChange={(e) => setDayTrade(e.target.checked)} />
              <span>{t('dayTrade')}</span>
            </label>
          )}
          <div className="card-sub">
            <div className="kv">
              <strong>{t('est.title')}</strong>
            </div>
            <Kv label={t('est.marketValue')} value={est ? money(est.marketValue) : '--'} testId="est-marketValue" />
            <Kv label={t('est.fee')} value={est ? money(est.fee) : '--'} testId="est-fee" />
            <Kv label={t('est.tax')} value={est ? money(est.tax) : '--'} testId="est-tax" />
            {est && est.loan !== '0.00' ? <Kv label={t('est.loan')} value={money(est.loan)} testId="est-loan" /> : null}
            <Kv label={t('est.margin')} value={est ? money(est.margin) : '--'} testId="est-margin" />
            <Kv label={t('est.amount')} value={est ? money(est.amount) : '--'} testId="est-amount" />
            <Kv label={t('available')} value={money(info.data?.assets.available)} testId="ticket-available" />
          </div>
          {extras.nodes}
          <div className="field-error" data-testid="form-error" role={error ? 'alert' : undefined}>
            {error}
          </div>
          <Button block color={direction === 'long' ? 'danger' : 'success'} loading={place.pending} data-testid="ticket-submit" onClick={submit}>
            {t('submit')}
          </Button>
        </div>
      )}
    </Page>
  );
}
