import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { FormError } from '@/components/FormError';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';

/** One input of an ops form: its key in the values, the input's type and keyboard. */
export interface OfferingField<K extends string> {
  key: K;
  type?: string;
  mode?: 'decimal' | 'numeric';
}

interface Props<V extends { [K in keyof V]: string }, B, R> {
  title: string;
  submitText: string;
  /** data-testid prefix: the form is <prefix>-form, each input <prefix>-<key>, the button <prefix>-submit */
  testPrefix: string;
  fields: readonly OfferingField<Extract<keyof V, string>>[];
  empty: V;
  label: (key: Extract<keyof V, string>) => string;
  /** the request body, or null when a field is missing (then requiredKey is shown) */
  toBody: (v: V) => B | null;
  requiredKey: string;
  send: (body: B, idempotencyKey: string) => Promise<R>;
  onDone: (r: R) => void;
}

/** Ops' form that lists an offering (an auction, a placement): fields as typed, checked, sent once per press. */
export function OfferingForm<V extends { [K in keyof V]: string }, B, R>(p: Props<V, B, R>) {
  const [v, setV] = useState<V>(p.empty);
  const [err, setErr] = useState<string | null>(null);
  const send = useAction((body: B, key) => p.send(body, key), {
    onSuccess: (r) => {
      setV(p.empty);
      p.onDone(r);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = p.toBody(v);
    setErr(body ? null : p.requiredKey);
    if (body) send.run(body);
  };
  return (
    <form className="card" onSubmit={submit} data-testid={`${p.testPrefix}-form`}>
      <div className="section-title">{p.title}</div>
      {p.fields.map((f) => (
        <TextField
          key={f.key}
          label={p.label(f.key)}
          testId={`${p.testPrefix}-${f.key}`}
          value={v[f.key]}
          type={f.type}
          inputMode={f.mode}
          maxLength={40}
          onChange={(x) => setV((old) => ({ ...old, [f.key]: x }))}
        />
      ))}
      <FormError errorKey={err} />
      <Button block color="primary" type="submit" loading={send.pending} data-testid={`${p.testPrefix}-submit`}>
        {p.submitText}
      </Button>
    </form>
  );
}
