import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Selector } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { money, taipeiWindow } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type BlockListing, type ListBody, blockApi, blockKeys, useBlocks } from './api';
import { BlockOpsNav } from './OpsNav';
import { useBlockT } from './texts';
import { type ListValues, listBody, validateList } from './validation';
import '@/domain/wallet/wallet.css';
import './block.css';

const EMPTY: ListValues = { symbol: '', mode: 'premium', premium: '', price: '', minLots: '1', dailyCap: '10', total: '500', password: '', days: '7' };

function ListForm() {
  const bt = useBlockT();
  const qc = useQueryClient();
  const [v, setV] = useState<ListValues>(EMPTY);
  const [err, setErr] = useState<FieldError<keyof ListValues> | null>(null);
  const set = (k: keyof ListValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const list = useAction((body: ListBody, key) => blockApi.list(body, key), {
    onSuccess: () => {
      toast.show(bt('ops.listed'));
      setV(EMPTY);
      void qc.invalidateQueries({ queryKey: blockKeys.all });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateList(v);
    setErr(fe);
    if (!fe) list.run(listBody(v, new Date()));
  };
  const digits = (k: keyof ListValues) => (s: string) => set(k)(s.replace(/\D/g, ''));
  return (
    <form onSubmit={onSubmit} noValidate className="card" data-testid="block-list-form">
      <div className="section-title">{bt('ops.listTitle')}</div>
      <TextField label={bt('ops.symbol')} testId="block-symbol" value={v.symbol} onChange={(s) => set('symbol')(s.toUpperCase())} maxLength={16} invalid={err?.field === 'symbol'} />
      <div className="field-label">{bt('ops.priceMode')}</div>
      <Selector
        columns={2}
        value={[v.mode]}
        onChange={(val) => val[0] && setV((p) => ({ ...p, mode: val[0] as ListValues['mode'] }))}
        options={[
          { label: bt('ops.byPremium'), value: 'premium' },
          { label: bt('ops.byPrice'), value: 'price' },
        ]}
        data-testid="block-mode"
      />
      {v.mode === 'premium' ? (
        <TextField label={bt('ops.byPremium')} testId="block-premium" value={v.premium} onChange={set('premium')} placeholder={bt('ops.premiumPlaceholder')} maxLength={6} invalid={err?.field === 'premium'} />
      ) : (
        <TextField label={bt('ops.byPrice')} testId="block-fixed-price" value={v.price} onChange={set('price')} inputMode="decimal" placeholder={bt('ops.pricePlaceholder')} maxLength={12} invalid={err?.field === 'price'} />
      )}
      <TextField label={bt('ops.minLots')} testId="block-min" value={v.minLots} onChange={digits('minLots')} inputMode="numeric" maxLength={6} invalid={err?.field === 'minLots'} />
      <TextField label={bt('ops.dailyCap')} testId="block-cap" value={v.dailyCap} onChange={digits('dailyCap')} inputMode="numeric" maxLength={6} invalid={err?.field === 'dailyCap'} />
      <TextField label={bt('ops.total')} testId="block-total" value={v.total} onChange={digits('total')} inputMode="numeric" maxLength={6} invalid={err?.field === 'total'} />
      <div className="muted block-hint">{bt('ops.totalHint')}</div>
      <TextField label={bt('ops.password')} testId="block-new-password" value={v.password} onChange={set('password')} maxLength={64} autoComplete="off" />
      <TextField label={bt('ops.days')} testId="block-days" value={v.days} onChange={digits('days')} inputMode="numeric" maxLength={3} invalid={err?.field === 'days'} />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" type="submit" loading={list.pending} data-testid="block-list-submit">
        {bt('ops.list')}
      </Button>
    </form>
  );
}

function OpsBlockItem({ b }: { b: BlockListing }) {
  const bt = useBlockT();
  const qc = useQueryClient();
  const close = useAction((_: void, key) => blockApi.close(b.blockId, key), {
    onSuccess: () => {
      toast.show(bt('ops.closed'));
      void qc.invalidateQueries({ queryKey: blockKeys.all });
    },
  });
  return (
    <div className="record" data-testid="ops-block" data-block-id={b.blockId} data-status={b.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{b.name}</span> <span className="num">{b.symbol}</span>
        </span>
        <span className={`badge badge-block-${b.status}`}>{bt(`status.${b.status}`)}</span>
      </div>
      <div className="record-row muted">
        <span>{bt('price')}</span>
        <span className="num">{`${money(b.price)} (${b.premiumRate}%)`}</span>
      </div>
      <div className="record-row muted">
        <span>{`${bt('appliedLots')} / ${bt('filledLots')}`}</span>
        <span className="num">{`${b.appliedLots} / ${b.filledLots}`}</span>
      </div>
      <div className="record-row muted">
        <span>{`${bt('totalLots')} / ${bt('remainingLots')}`}</span>
        <span className="num" data-testid="ops-block-total">{`${b.totalLots} / ${b.remainingLots}`}</span>
      </div>
      <div className="record-row muted">
        <span>{bt('window')}</span>
        <span className="num">{taipeiWindow(b.opensAt, b.closesAt)}</span>
      </div>
      {b.status !== 'closed' ? (
        <Button
          size="small"
          loading={close.pending}
          data-testid="ops-block-close"
          onClick={() => void Dialog.confirm({ content: bt('ops.closeConfirm'), onConfirm: () => close.run() })}
        >
          {bt('ops.close')}
        </Button>
      ) : null}
    </div>
  );
}

/** Ops: list a block (price fixed, or a premium on the market feed's reference price) and close blocks. */
export default function OpsBlockPage() {
  const bt = useBlockT();
  const q = useBlocks(true);
  const items = q.data ?? [];
  return (
    <Page title={bt('ops.title')} testId="ops-block-page">
      <BlockOpsNav />
      <ListForm />
      <div className="record-list" data-testid="ops-block-list">
        {q.isPending ? <ListLoading /> : items.length === 0 ? <ListEmpty text={bt('empty')} /> : items.map((b) => <OpsBlockItem key={b.blockId} b={b} />)}
      </div>
    </Page>
  );
}
