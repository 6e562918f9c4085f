import { useQueryClient } from '@tanstack/react-query';
import { Button, Switch } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type ChannelBody, type LendingDesk, lendingApi, lendingKeys, percent, useAllLendings, useLendingDesk } from './api';
import { LendingItem } from './LendingRecordsPage';
import { useLendingT } from './texts';
import { type RuleValues, fractionOf, validRatePercent, validateRule } from './validation';
import './lending.css';

function useSaved() {
  const lt = useLendingT();
  const qc = useQueryClient();
  return () => {
    toast.show(lt('ops.saved'));
    void qc.invalidateQueries({ queryKey: lendingKeys.all });
  };
}

/** The channel open or closed, and the default rate. */
function Channel({ d }: { d: LendingDesk }) {
  const lt = useLendingT();
  const saved = useSaved();
  const [open, setOpen] = useState(d.open);
  const [rate, setRate] = useState(percent(d.defaultRate) === '0' ? '' : percent(d.defaultRate));
  const [err, setErr] = useState<FieldError<'rate'> | null>(null);
  useEffect(() => setOpen(d.open), [d.open]);
  const save = useAction((body: ChannelBody, key) => lendingApi.setChannel(body, key), { onSuccess: saved });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!validRatePercent(rate, Number(percent(d.maxRate)))) {
      setErr({ field: 'rate', key: 'lending_rate_invalid' });
      return;
    }
    setErr(null);
    save.run({ open, defaultRate: fractionOf(rate) });
  };
  return (
    <form className="card" onSubmit={onSubmit} noValidate data-testid="ops-lending-channel" data-open={d.open}>
      <div className="lending-switch">
        <span>{lt('ops.channel')}</span>
        <span>
          <span className="muted">{open ? lt('ops.open') : lt('ops.closed')}</span>{' '}
          <Switch checked={open} onChange={setOpen} data-testid="ops-lending-open" />
        </span>
      </div>
      <TextField
        label={lt('ops.defaultRate')}
        testId="ops-lending-default-rate"
        value={rate}
        onChange={(s) => {
          setRate(s);
          setErr(null);
        }}
        inputMode="decimal"
        maxLength={6}
        invalid={err !== null}
      />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" size="small" type="submit" loading={save.pending} data-testid="ops-lending-channel-save">
        {lt('ops.save')}
      </Button>
    </form>
  );
}

/** Per symbol rates and quotas: the list, and a form that sets one. */
function Symbols({ d }: { d: LendingDesk }) {
  const lt = useLendingT();
  const saved = useSaved();
  const [v, setV] = useState<RuleValues>({ symbol: '', rate: '', quota: '' });
  const [err, setErr] = useState<FieldError<keyof RuleValues> | null>(null);
  const save = useAction((r: RuleValues, key) => lendingApi.setSymbol(r.symbol, { rate: fractionOf(r.rate), quota: Number(r.quota) }, key), {
    onSuccess: saved,
  });
  const set = (k: keyof RuleValues) => (s: string) => {
    setV((o) => ({ ...o, [k]: k === 'symbol' ? s.toUpperCase() : s }));
    if (err?.field === k) setErr(null);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateRule(v, Number(percent(d.maxRate)));
    setErr(fe);
    if (!fe) save.run({ ...v, symbol: v.symbol.trim(), quota: v.quota.trim() });
  };
  return (
    <div className="card" data-testid="ops-lending-symbols">
      <div className="record-row">
        <span>{lt('ops.symbols')}</span>
      </div>
      {d.symbols.map((r) => (
        <div className="record" key={r.symbol} data-testid="ops-lending-symbol" data-symbol={r.symbol}>
          <div className="record-row">
            <span className="lending-name">
              <span className="num">{r.symbol}</span> <span data-text="data">{r.name}</span>
            </span>
            <span className="num">{`${percent(r.effectiveRate)}%${r.rate ? '' : ` (${lt('ops.defaultLabel')})`}`}</span>
          </div>
          <Row label={lt('ops.quotaShares')}>{r.quota}</Row>
          <Row label={lt('ops.used')}>{r.used}</Row>
          <Button
            size="mini"
            fill="none"
            onClick={() => setV({ symbol: r.symbol, rate: r.rate ? percent(r.rate) : '', quota: String(r.quota) })}
            data-testid="ops-lending-symbol-edit"
          >
            {lt('ops.edit')}
          </Button>
        </div>
      ))}
      <form onSubmit={onSubmit} noValidate className="lending-form" data-testid="ops-lending-symbol-form">
        <TextField label={lt('ops.symbol')} testId="ops-lending-symbol-code" value={v.symbol} onChange={set('symbol')} maxLength={10} invalid={err?.field === 'symbol'} />
        <TextField
          label={lt('ops.symbolRate')}
          testId="ops-lending-symbol-rate"
          value={v.rate}
          onChange={set('rate')}
          inputMode="decimal"
          maxLength={6}
          invalid={err?.field === 'rate'}
        />
        <TextField
          label={lt('ops.quotaShares')}
          testId="ops-lending-symbol-quota"
          value={v.quota}
          onChange={(s) => set('quota')(s.replace(/\D/g, ''))}
          inputMode="numeric"
          maxLength={10}
          invalid={err?.field === 'quota'}
        />
        <FormError errorKey={err?.key ?? null} />
        <Button block color="primary" shape="rounded" size="small" type="submit" loading={save.pending} data-testid="ops-lending-symbol-save">
          {lt('ops.save')}
        </Button>
      </form>
    </div>
  );
}

function AllLendings() {
  const lt = useLendingT();
  const q = useAllLendings();
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="card" data-testid="ops-lending-records">
      <div className="record-row">
        <span>{lt('ops.lendings')}</span>
      </div>
      <div className="record-list">
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty text={lt('recordsEmpty')} />
        ) : (
          <>
            {items.map((l) => (
              <LendingItem key={l.lendNo} l={l} ops />
            ))}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </div>
  );
}

/** Ops: the lending channel, the default and per-symbol rates and quotas, and every lending. */
export default function OpsLendingPage() {
  const lt = useLendingT();
  const { t } = useTranslation();
  const d = useLendingDesk();
  return (
    <Page title={lt('ops.title')} testId="ops-lending-page">
      {d.data ? (
        <>
          <Channel key={`${d.data.open}-${d.data.defaultRate}`} d={d.data} />
          <Symbols d={d.data} />
          <AllLendings />
        </>
      ) : d.isError ? (
        <ListEmpty text={t('msg.system_busy')} />
      ) : (
        <ListLoading />
      )}
    </Page>
  );
}
