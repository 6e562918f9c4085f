import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { money, taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { useTranslation } from 'react-i18next';
import { couponKeys, couponsApi, type GrantBody, useGranted } from './api';
import { type GrantValues, validateGrant } from './rules';
import { useCouponsT } from './texts';
import './coupons.css';

const EMPTY: GrantValues = { account: '', value: '20', uses: '1', days: '30', reason: '' };

function GrantForm() {
  const ct = useCouponsT();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [v, setV] = useState<GrantValues>(EMPTY);
  const [err, setErr] = useState<FieldError<keyof GrantValues> | null>(null);
  const set = (k: keyof GrantValues, clean: (s: string) => string = (s) => s) => (val: string) => {
    setV((p) => ({ ...p, [k]: clean(val) }));
    if (err?.field === k) setErr(null);
  };
  const digits = (s: string) => s.replace(/\D/g, '');
  const grant = useAction((body: GrantBody, key) => couponsApi.grant(body, key), {
    onSuccess: () => {
      toast.show(t('msg.coupon_granted'));
      setV(EMPTY);
      void qc.invalidateQueries({ queryKey: couponKeys.all });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateGrant(v);
    setErr(fe);
    if (!fe) grant.run({ account: v.account.trim(), value: v.value, uses: Number(v.uses), validDays: Number(v.days), reason: v.reason.trim() });
  };
  const field = (k: keyof GrantValues, label: string, clean?: (s: string) => string, mode?: 'numeric', max = 12) => (
    <TextField label={label} testId={`coupon-grant-${k}`} value={v[k]} onChange={set(k, clean)} inputMode={mode} maxLength={max} invalid={err?.field === k} />
  );
  return (
    <form onSubmit={onSubmit} noValidate className="card" data-testid="coupon-grant-form">
      <div className="section-title">{ct('ops.formTitle')}</div>
      {field('account', ct('ops.account'), (s) => s.trim(), undefined, 64)}
      {field('value', ct('ops.value'), digits, 'numeric', 4)}
      {field('uses', ct('ops.uses'), digits, 'numeric', 2)}
      {field('days', ct('ops.days'), digits, 'numeric', 2)}
      {field('reason', ct('ops.reason'), undefined, undefined, 200)}
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" type="submit" loading={grant.pending} data-testid="coupon-grant-submit">
        {ct('ops.submit')}
      </Button>
    </form>
  );
}

/** Ops: grant a member a fee coupon with a reason; the coupons granted so far, with who granted them. */
export default function OpsCouponsPage() {
  const ct = useCouponsT();
  const q = useGranted();
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Page title={ct('ops.title')} testId="ops-coupons-page">
      <GrantForm />
      <div className="section-title">{ct('ops.listTitle')}</div>
      <div className="record-list" data-testid="ops-coupon-list">
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty text={ct('empty')} />
        ) : (
          items.map((c) => (
            <div key={c.couponId} className="record" data-testid="ops-coupon" data-status={c.status}>
              <div className="record-row">
                <span className="record-amount num">{c.account}</span>
                <span className={`badge badge-coupon-${c.status}`}>{ct(`status.${c.status}`)}</span>
              </div>
              <div className="record-row muted">
                <span>{ct('value', { value: money(c.value) })}</span>
                <span className="num">{ct('left', { left: c.left, uses: c.uses })}</span>
              </div>
              <div className="record-row muted">
                <span className="num">{ct('expiry', { day: c.expiryDay })}</span>
                <span className="num">{taipeiTime(c.createdAt)}</span>
              </div>
              <div className="muted coupon-reason">
                {c.reason} · {ct('ops.by', { actor: c.actor })}
              </div>
            </div>
          ))
        )}
      </div>
    </Page>
  );
}
