import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useTradeT } from '@/domain/trade/texts';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { useUserInfo } from '@/lib/user';
import { useNotices, usePosition, useTradeChanged } from './api';
import { Kv } from './Kv';
import { topUpMax, validateTopUp } from './topUp';
import './trade.css';

/** Additional credit margin for one margin position: /trade/topUp?id= (reached from the position under a margin call). */
export default function TopUpPage() {
  const { t } = useTranslation();
  const tt = useTradeT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = usePosition(id);
  const notices = useNotices();
  const info = useUserInfo();
  const changed = useTradeChanged();
  const [amount, setAmount] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const send = useAction((a: string, key) => api.post('/api/vue/trade/positions/{id}/topUp', { amount: a }, { params: { id }, idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(t('msg.margin_topped_up'));
      changed();
      void navigate(`/position/positionDetail?id=${encodeURIComponent(id)}`, { replace: true });
    },
  });
  const p = q.data?.position;
  if (!p) {
    return (
      <Page title={tt('topUp.title')} testId="top-up-page">
        {q.isPending && id ? <ListLoading /> : <ListEmpty text={tt('pos.empty')} />}
      </Page>
    );
  }
  const short = p.direction === 'short';
  const available = info.data?.assets.available ?? '0';
  const limits = { available, loan: short ? null : p.loan };
  const call = notices.data?.items[0]?.type === 'margin_call' ? notices.data.items[0] : undefined;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateTopUp(amount, limits);
    setErr(fe?.key ?? null);
    if (!fe) send.run(amount.trim());
  };
  return (
    <Page title={tt('topUp.title')} testId="top-up-page">
      {call ? (
        <div className="card top-up-call up" data-testid="top-up-call">
          {tt('topUp.call', { deadline: call.deadline ?? '' })}
        </div>
      ) : null}
      <div className="card">
        <div className="pos-head">
          <span>
            <span data-text="data">{p.name}</span> <span className="muted num">{p.symbol}</span>
          </span>
          <span>{tt(p.direction)}</span>
        </div>
        <Kv label={tt('pos.orderNo')} value={p.orderNo} testId="top-up-order-no" />
        {short ? (
          <Kv label={tt('topUp.shortMargin')} value={money(p.margin)} testId="top-up-margin" />
        ) : (
          <Kv label={tt('topUp.loan')} value={money(p.loan)} testId="top-up-loan" />
        )}
        <Kv label={tt('topUp.available')} value={money(available)} testId="top-up-available" />
      </div>
      <form className="card" onSubmit={onSubmit} noValidate data-testid="top-up-form">
        <p className="muted">{tt(short ? 'topUp.hintShort' : 'topUp.hintLong')}</p>
        <TextField
          label={tt('topUp.amount')}
          testId="top-up-amount"
          value={amount}
          onChange={(v) => setAmount(v.slice(0, 20))}
          inputMode="decimal"
          maxLength={20}
          placeholder={tt('topUp.placeholder', { max: money(topUpMax(limits)) })}
          invalid={err !== null}
        />
        <FormError errorKey={err} />
        <Button block color="primary" shape="rounded" type="submit" loading={send.pending} data-testid="top-up-submit">
          {tt('topUp.submit')}
        </Button>
      </form>
    </Page>
  );
}
