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
import { impliedLeverage, openingDirection, pct, sessionAllows, sessionHint, SESSIONS, validateTicket, type Condition, type DayTradeWay, type Session, type Tif } from './ticket';
import './trade.css';

function Seg<V extends string>({ value, options, onChange, testId }: { value: V; options: { v: V; label: string; cls?: string }[]; onChange: (v: V) => void; testId: string }) {
  return (
    <div className={options.length > 3 ? 'seg seg-wrap' : 'seg'} role="group">
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

/** The order ticket: /market/marketBuy?symbol=&side=buy|sell[&dayTrade=1] (a day trade, selling first with side=sell) */
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

  const sellSide = params.get('side') === 'sell';
  const [condition, setCondition] = useState<Condition>(params.get('dayTrade') === '1' ? 'day_trade' : sellSide ? 'short' : 'cash');
  const [way, setWay] = useState<DayTradeWay>(sellSide ? 'sell' : 'buy');
  const [session, setSession] = useState<Session>('regular');
  const [tif, setTif] = useState<Tif>('ROD');
  const [type, setType] = useState<'limit' | 'market'>('limit');
  const [qty, setQty] = useState('1');
  const [price, setPrice] = useState('');
  const [error, setError] = useState<string>('');

  const d = q.data;
  const kind: Kind = d?.type === 'etf' ? 'etf' : 'stock';
  const allows = sessionAllows(session);
  const hint = sessionHint(session, d?.session.afterHoursAuctionEvery ?? 0);
  const oddLot = allows.odd;
  const direction = openingDirection(condition, way);
  const dayTrade = condition === 'day_trade';
  const leverage = impliedLeverage(condition, rules.data);
  // The limit starts at the last price once it is known.
  useEffect(() => {
    if (d && price === '') setPrice(formatPrice(d.price).replace(/,/g, ''));
  }, [d, price]);
  // A session takes only some conditions, price types and times in force: keep the ticket inside them.
  const chooseSession = (s: Session) => {
    const a = sessionAllows(s);
    setSession(s);
    if (!a.conditions.includes(condition)) setCondition('cash');
    if (!a.market) setType('limit');
    if (!a.tifs.includes(tif)) setTif('ROD');
    if (a.closeOnly && d) setPrice(formatPrice(d.price).replace(/,/g, ''));
  };
  const unit = t(oddLot ? 'tk.unit.shares' : 'tk.unit.lots');

  const shares = /^\d+$/.test(qty) ? Number(qty) * (oddLot ? 1 : (rules.data?.boardLot ?? 1000)) : 0;
  const usedPrice = type === 'market' || allows.closeOnly ? (d?.price ?? '') : price;
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
    const bad = validateTicket({ type, qty, price: allows.closeOnly ? formatPrice(d.price).replace(/,/g, '') : price, kind, limitUp: d.limitUp, limitDown: d.limitDown });
    if (bad) {
      const o = bad.opts ?? {};
      setError(t(bad.key, o.up ? { down: formatPrice(o.down), up: formatPrice(o.up) } : o));
      return;
    }
    setError('');
    const body: OrderRequest = {
      symbol,
      direction,
      type,
      condition,
      session,
      timeInForce: tif,
      ...(oddLot ? { shares: Number(qty) } : { lots: Number(qty) }),
    };
    if (type === 'limit' && !allows.closeOnly) body.price = price;
    const row = (label: string, value: string, testId: string) => (
      <div className="kv" key={testId}>
        <span>{label}</span>
        <span className="num" data-testid={testId} data-text={testId === 'confirm-stock' ? 'data' : undefined}>
          {value}
        </span>
      </div>
    );
    void Dialog.confirm({
      title: t('confirmTitle'),
      content: (
        <div className="ticket-confirm" data-testid="ticket-confirm">
          {info.data ? row(t('tk.confirm.account'), info.data.account, 'confirm-account') : null}
          {row(t('tk.confirm.stock'), `${d.symbol} ${displayName(d, currentLang())}`, 'confirm-stock')}
          {row(t('tk.confirm.side'), t(direction === 'long' ? 'buy' : 'sell'), 'confirm-side')}
          {row(t('tk.condition'), dayTrade ? t('tk.condWay', { cond: t('tk.cond.day_trade'), way: t(`tk.dt.${way}`) }) : t(`tk.cond.${condition}`), 'confirm-condition')}
          {row(t('tk.session'), `${t(`tk.sess.${session}`)} · ${tif}`, 'confirm-session')}
          {row(t('tk.confirm.quantity'), `${qty} ${unit}`, 'confirm-quantity')}
          {row(t('tk.confirm.price'), `${t(allows.closeOnly ? 'tk.closePrice' : type)} ${type === 'market' ? '' : price}`.trim(), 'confirm-price')}
          {row(t('tk.confirm.amount'), est ? money(est.amount) : '--', 'confirm-amount')}
          {row(t('tk.confirm.fee'), est ? money(est.fee) : '--', 'confirm-fee')}
          {row(t('tk.confirm.tax'), est ? money(est.tax) : '--', 'confirm-tax')}
          {dayTrade ? row(t('tk.confirm.offset'), t(`tk.confirm.offsetBy.${way}`, { qty: `${qty} ${unit}` }), 'confirm-offset') : null}
        </div>
      ),
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
          <div className="seg-label">{t('tk.condition')}</div>
          <Seg
            value={condition}
            onChange={setCondition}
            testId="ticket-cond"
            options={allows.conditions.map((c) => ({ v: c, label: t(`tk.cond.${c}`), cls: c === 'short' ? 'sell' : 'buy' }))}
          />
          {dayTrade ? (
            <>
              <Seg
                value={way}
                onChange={setWay}
                testId="ticket-dt"
                options={(['buy', 'sell'] as const).map((w) => ({ v: w, label: t(`tk.dt.${w}`), cls: w === 'sell' ? 'sell' : 'buy' }))}
              />
              <div className="trade-hint muted" data-testid="ticket-dt-hint">
                {t(`tk.dtHint.${way}`)}
              </div>
              {d.tradingStatus === 'disposition' ? (
                <div className="trade-hint field-error" data-testid="ticket-dt-disposed" role="note">
                  {t('tk.dtDisposed')}
                </div>
              ) : null}
            </>
          ) : null}
          <div className="trade-hint muted" data-testid="ticket-leverage">
            {t('tk.leverage', {
              lev: leverage,
              rule: t(`tk.rule.${condition}`, {
                pct: pct(condition === 'margin' ? (rules.data?.maxFinancing ?? '0.6') : condition === 'short' ? (rules.data?.minShortMargin ?? '0.9') : (rules.data?.dayTradeTaxRate ?? '0.0015')),
              }),
            })}
          </div>
          <div className="seg-label">{t('tk.session')}</div>
          <Seg value={session} onChange={chooseSession} testId="ticket-sess" options={SESSIONS.map((s) => ({ v: s, label: t(`tk.sess.${s}`) }))} />
          <div className="trade-hint muted" data-testid="ticket-session-hint">
            {t(hint.key, hint.opts)}
          </div>
          {allows.tifs.length > 1 ? (
            <>
              <div className="seg-label">{t('tk.tif')}</div>
              <Seg value={tif} onChange={setTif} testId="ticket-tif" options={allows.tifs.map((v) => ({ v, label: v }))} />
              <div className="trade-hint muted">{t(`tk.tifName.${tif}`)}</div>
            </>
          ) : null}
          <div className="seg-label">{t('tk.priceType')}</div>
          {allows.closeOnly ? (
            <div className="kv">
              <span>{t('tk.closePrice')}</span>
              <span className="num" data-testid="ticket-close-price">
                {formatPrice(d.price)}
              </span>
            </div>
          ) : (
            <Seg
              value={type}
              onChange={setType}
              testId="ticket"
              options={allows.market ? [{ v: 'limit', label: t('limit') }, { v: 'market', label: t('market') }] : [{ v: 'limit', label: t('limit') }]}
            />
          )}
          <div className="field-row">
            <label htmlFor="ticket-qty">{`${t(oddLot ? 'shares' : 'lots')} (${unit})`}</label>
            <input id="ticket-qty" data-testid="ticket-qty" inputMode="numeric" value={qty} onChange={(e) => setQty(e.target.value.replace(/\D/g, ''))} />
            <span className="unit" data-testid="ticket-unit">
              {unit}
            </span>
          </div>
          {type === 'limit' && !allows.closeOnly ? (
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
