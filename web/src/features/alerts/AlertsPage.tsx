import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { toastMessage } from '@/lib/toast';
import { type AlertKind, KINDS, type PriceAlert, alertKeys, alertsApi, useAlertSocket, useAlerts, useNotifications } from './api';
import { tellFired } from './notices';
import { useAlertsT } from './texts';
import './alerts.css';

/** An alert's symbol with its name in the app's language. */
export function AlertName({ a }: { a: PriceAlert }) {
  const { i18n } = useTranslation();
  return (
    <span data-text="data" className="alert-name">
      {i18n.language === 'en' ? a.nameEn : a.name} {a.symbol}
    </span>
  );
}

/** The condition of an alert, as the member set it. */
export function useCondition(): (a: PriceAlert) => string {
  const at = useAlertsT();
  return (a) => `${at(`kinds.${a.kind}`)} ${a.value}`;
}

/** Toasts each alert that fires while a screen of alerts is up, at once (elsewhere the poll of useAlertAnnounce does). */
export function useAlertToasts() {
  useAlertSocket((f) => tellFired(f.alert));
}

function Form({ disabled }: { disabled: boolean }) {
  const at = useAlertsT();
  const qc = useQueryClient();
  const [symbol, setSymbol] = useState('');
  const [kind, setKind] = useState<AlertKind>('price_above');
  const [value, setValue] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const set = useAction((v: { symbol: string; kind: AlertKind; value: string }, key: string) => alertsApi.set(v, key), {
    onSuccess: () => {
      toastMessage('alert_set');
      setValue('');
      void qc.invalidateQueries({ queryKey: alertKeys.all });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const sym = symbol.trim().toUpperCase();
    if (sym === '') return setErr('alerts.symbolRequired');
    if (!/^\d+(\.\d{1,2})?$/.test(value.trim()) || Number(value) <= 0) return setErr('alert_value_invalid');
    setErr(null);
    set.run({ symbol: sym, kind, value: value.trim() });
  };
  return (
    <form className="card alert-form" onSubmit={onSubmit} noValidate data-testid="alert-form">
      <TextField label={at('symbol')} testId="alert-symbol" value={symbol} onChange={setSymbol} placeholder={at('symbolPlaceholder')} maxLength={12} />
      <div className="field-label">{at('kind')}</div>
      <div className="seg alert-kinds" role="radiogroup">
        {KINDS.map((k) => (
          <button key={k} type="button" role="radio" aria-checked={k === kind} aria-pressed={k === kind} data-testid={`alert-kind-${k}`} onClick={() => setKind(k)}>
            {at(`kinds.${k}`)}
          </button>
        ))}
      </div>
      <TextField label={at('value')} testId="alert-value" value={value} onChange={setValue} inputMode="decimal" maxLength={12} />
      <FormError errorKey={err} />
      <Button block color="primary" shape="rounded" type="submit" loading={set.pending} disabled={disabled} data-testid="alert-submit">
        {at('set')}
      </Button>
    </form>
  );
}

function Item({ a }: { a: PriceAlert }) {
  const at = useAlertsT();
  const cond = useCondition();
  const qc = useQueryClient();
  const cancel = useAction((id: string, key: string) => alertsApi.cancel(id, key), {
    onSuccess: () => {
      toastMessage('alert_cancelled');
      void qc.invalidateQueries({ queryKey: alertKeys.all });
    },
  });
  return (
    <div className="record" data-testid="alert" data-id={a.id} data-status={a.status}>
      <div className="record-row">
        <AlertName a={a} />
        <span className={`badge badge-alert-${a.status}`} data-testid="alert-status">
          {at(`status.${a.status}`)}
        </span>
      </div>
      <div className="record-row muted">
        <span className="num">{cond(a)}</span>
        {a.status === 'active' ? (
          <Button size="mini" data-testid="alert-cancel" loading={cancel.pending} onClick={() => cancel.run(a.id)}>
            {at('cancel')}
          </Button>
        ) : (
          <span className="num">{a.price}</span>
        )}
      </div>
    </div>
  );
}

/** The member's price alerts: set one, see them active or triggered, cancel an active one. */
export default function AlertsPage() {
  const at = useAlertsT();
  const list = useAlerts();
  const notes = useNotifications();
  useAlertToasts();
  const items = list.data?.items ?? [];
  const unread = notes.data?.unread ?? 0;
  return (
    <Page
      title={at('title')}
      testId="alerts-page"
      right={
        <AppLink to="/user/notifications" data-testid="to-notifications" className="alert-bell">
          {at('notifications')}
          {unread > 0 ? (
            <span className="alert-unread" data-testid="alert-unread">
              {unread}
            </span>
          ) : null}
        </AppLink>
      }
    >
      <Form disabled={(list.data?.active ?? 0) >= (list.data?.maxActive ?? 50)} />
      {list.data ? (
        <div className="muted alert-count" data-testid="alert-active">
          {at('active', { n: list.data.active, max: list.data.maxActive })}
        </div>
      ) : null}
      <div data-testid="alert-list">
        {list.isPending ? <ListLoading /> : items.length === 0 ? <ListEmpty text={at('empty')} /> : items.map((a) => <Item key={a.id} a={a} />)}
      </div>
    </Page>
  );
}
