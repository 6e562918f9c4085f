import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api } from '@/lib/api/client';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { ConsoleNav } from './ConsoleNav';
import { type ChannelBody, type ChannelValues, channelBody, channelError, channelValues, emptyChannel } from './form';
import './console.css';

const channelsKey = ['console', 'channels'] as const;

function ChannelForm({ initial, isNew, onDone }: { initial: ChannelValues; isNew: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [v, setV] = useState(initial);
  const [bad, setBad] = useState<keyof ChannelValues | null>(null);
  const days = t('weekdays', { returnObjects: true });
  const set = (k: keyof ChannelValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (bad === k) setBad(null);
  };
  const save = useAction((body: ChannelBody, key) => api.post('/api/vue/ops/channels', body, { idempotencyKey: key }), {
    onSuccess: () => {
      toast.show(t('console.saved'));
      void qc.invalidateQueries({ queryKey: channelsKey });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = channelError(v);
    setBad(err);
    if (!err) save.run(channelBody(v));
  };
  const field = (k: keyof ChannelValues, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField label={label} testId={`channel-${k}`} value={String(v[k])} onChange={set(k)} invalid={bad === k} {...extra} />
  );
  const toggle = (k: 'closedOnHolidays' | 'alwaysOpen' | 'enabled', label: string) => (
    <label>
      <input type="checkbox" data-testid={`channel-${k}`} checked={v[k]} onChange={(e) => setV((p) => ({ ...p, [k]: e.target.checked }))} />
      {label}
    </label>
  );
  return (
    <form className="card console-form" onSubmit={submit} noValidate data-testid="channel-form">
      {isNew ? field('id', t('console.channelId'), { maxLength: 32 }) : <strong data-testid="channel-editing">{v.id}</strong>}
      {field('name', t('console.channelName'), { maxLength: 64 })}
      {field('currency', t('console.currency'), { maxLength: 3 })}
      {field('min', t('console.min'), { inputMode: 'decimal', maxLength: 15 })}
      {field('max', t('console.max'), { inputMode: 'decimal', maxLength: 15 })}
      {toggle('alwaysOpen', t('console.alwaysOpen'))}
      {!v.alwaysOpen ? (
        <>
          <div className={`console-days ${bad === 'weekdays' ? 'invalid' : ''}`} aria-label={t('console.weekdays')}>
            {days.map((name, d) => (
              <label key={name}>
                <input
                  type="checkbox"
                  data-testid={`channel-day-${d}`}
                  checked={v.weekdays.includes(d)}
                  onChange={(e) =>
                    setV((p) => ({ ...p, weekdays: e.target.checked ? [...p.weekdays, d] : p.weekdays.filter((x) => x !== d) }))
                  }
                />
                {name}
              </label>
            ))}
          </div>
          {field('open', t('console.open'), { maxLength: 5 })}
          {field('close', t('console.close'), { maxLength: 5 })}
          {toggle('closedOnHolidays', t('console.closedOnHolidays'))}
        </>
      ) : null}
      {field('password', t('console.password'), { type: 'password', autoComplete: 'new-password', maxLength: 64 })}
      {field('bank', t('console.payeeBank'), { maxLength: 64 })}
      {field('branch', t('console.payeeBranch'), { maxLength: 64 })}
      {field('account', t('console.payeeAccount'), { maxLength: 40 })}
      {field('holder', t('console.payeeName'), { maxLength: 64 })}
      {toggle('enabled', t('console.enabled'))}
      <FormError errorKey={bad ? 'console.fieldInvalid' : null} />
      <Button block color="primary" type="submit" loading={save.pending} data-testid="channel-save">
        {t('console.save')}
      </Button>
    </form>
  );
}

/** Ops define and redefine the deposit channels, with the payee members transfer to. */
export default function ChannelsPage() {
  const { t } = useTranslation();
  const channels = useQuery({ queryKey: channelsKey, queryFn: ({ signal }) => api.get('/api/vue/ops/channels', { signal }) });
  const [editing, setEditing] = useState<{ values: ChannelValues; isNew: boolean } | null>(null);
  return (
    <Page title={t('console.channels')} testId="ops-channels-page">
      <ConsoleNav />
      {editing ? (
        <ChannelForm key={editing.values.id || 'new'} initial={editing.values} isNew={editing.isNew} onDone={() => setEditing(null)} />
      ) : (
        <Button block onClick={() => setEditing({ values: emptyChannel, isNew: true })} data-testid="channel-new">
          {t('console.newChannel')}
        </Button>
      )}
      {channels.isPending ? (
        <ListLoading />
      ) : (
        (channels.data ?? []).map((ch) => (
          <div className="record" key={ch.id} data-testid="ops-channel" data-id={ch.id} data-enabled={ch.enabled}>
            <div className="record-row">
              <strong>{ch.name}</strong>
              <span className={`badge ${ch.enabled ? 'badge-approved' : 'badge-unverified'}`}>
                {t(ch.enabled ? 'console.enabled' : 'console.disabledState')}
              </span>
            </div>
            <div className="muted">
              {ch.id} · {ch.currency} {money(ch.min)} – {money(ch.max)}
            </div>
            {ch.payee.bank ? (
              <div className="muted" data-testid="ops-channel-payee">
                {ch.payee.bank} {ch.payee.branch} {ch.payee.account} {ch.payee.name}
              </div>
            ) : null}
            <Button size="small" onClick={() => setEditing({ values: channelValues(ch), isNew: false })} data-testid="channel-edit">
              {t('console.edit')}
            </Button>
          </div>
        ))
      )}
    </Page>
  );
}
