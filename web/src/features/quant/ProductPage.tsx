import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type QuantProduct, type SubscribeBody, quantApi, quantKeys, useQuantProduct } from './api';
import { BacktestFigures, EquityCurve, useLocalized } from './parts';
import { useQuantT } from './texts';
import { validateSubscribe } from './validation';
import './quant.css';

function SubscribeForm({ p }: { p: QuantProduct }) {
  const { t } = useTranslation();
  const qt = useQuantT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [amount, setAmount] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const sub = useAction((body: SubscribeBody, key) => quantApi.subscribe(body, key), {
    onSuccess: () => {
      toast.show(t('msg.quant_subscribed'));
      void qc.invalidateQueries({ queryKey: quantKeys.all });
      void navigate('/quant/mine');
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateSubscribe(amount, p.minAmount);
    setErr(fe?.key ?? null);
    if (!fe) sub.run({ product: p.id, amount });
  };
  return (
    <form className="card" onSubmit={onSubmit} noValidate data-testid="quant-subscribe">
      <div className="record-row">
        <span>{qt('subscribe')}</span>
      </div>
      <TextField
        label={qt('amount')}
        testId="quant-amount"
        value={amount}
        onChange={(s) => {
          setAmount(s.replace(/\D/g, ''));
          setErr(null);
        }}
        inputMode="numeric"
        maxLength={10}
        placeholder={qt('amountPlaceholder', { min: money(p.minAmount) })}
        invalid={err !== null}
      />
      <FormError errorKey={err} />
      <Button block color="primary" shape="rounded" type="submit" loading={sub.pending} data-testid="quant-subscribe-submit">
        {qt('submit')}
      </Button>
    </form>
  );
}

/** A product: its rule, its symbols, the backtest with its equity curve, and the subscribe form. */
export default function ProductPage() {
  const qt = useQuantT();
  const [params] = useSearchParams();
  const q = useQuantProduct(params.get('id') ?? '');
  const loc = useLocalized();
  const p = q.data;
  const l = p ? loc(p) : null;
  return (
    <Page title={l?.name ?? qt('title')} testId="quant-product-page">
      {q.isPending ? <ListLoading /> : null}
      {p && l ? (
        <>
          <div className="card">
            <p className="quant-desc">{l.description}</p>
            <Row label={qt('symbols')}>{p.symbols.join(' · ')}</Row>
            <div className="record-row">
              <span>{qt('rule')}</span>
            </div>
            <p className="muted quant-rule" data-testid="quant-rule">
              {l.rule}
            </p>
            <p className="muted quant-note">{qt('schedule', { time: p.schedule })}</p>
            <p className="muted quant-note" data-testid="quant-no-fee">
              {qt('noFee')}
            </p>
          </div>
          <div className="card">
            <div className="record-row">
              <span>{qt('backtest')}</span>
            </div>
            <EquityCurve points={p.backtest.curve} />
            <BacktestFigures p={p} />
            <p className="muted quant-note">{qt('backtestNote')}</p>
          </div>
          <SubscribeForm p={p} />
        </>
      ) : null}
    </Page>
  );
}
