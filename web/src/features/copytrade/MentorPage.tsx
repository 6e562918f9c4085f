import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type FollowBody, type Mentor, copyApi, copyKeys, useMentor } from './api';
import { MentorStats } from './parts';
import { useCopyT } from './texts';
import { type FollowError, type FollowValues, validateFollow } from './validation';

function FollowForm({ m }: { m: Mentor }) {
  const { t } = useTranslation();
  const ct = useCopyT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [v, setV] = useState<FollowValues>({ amount: '', days: '' });
  const [err, setErr] = useState<FollowError>(null);
  const follow = useAction((body: FollowBody, key) => copyApi.follow(body, key), {
    onSuccess: (r) => {
      toast.show(t('msg.follow_started'));
      void qc.invalidateQueries({ queryKey: copyKeys.all });
      if (r.followId) navigate(`/gdindex/dsFllowInfo?id=${encodeURIComponent(r.followId)}`);
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateFollow(v, m.minAmount, m.windowDays);
    setErr(fe);
    if (!fe) follow.run({ mentorId: m.mentorId, amount: v.amount, ...(v.days ? { days: Number(v.days) } : {}) });
  };
  return (
    <form className="card" onSubmit={onSubmit} noValidate data-testid="copy-follow-form">
      <div className="copy-section-title">{ct('follow')}</div>
      <TextField
        label={ct('amount')}
        testId="copy-follow-amount"
        value={v.amount}
        onChange={(s) => setV((o) => ({ ...o, amount: s.replace(/\D/g, '') }))}
        inputMode="numeric"
        maxLength={10}
        placeholder={ct('amountPlaceholder', { min: money(m.minAmount) })}
        invalid={err?.field === 'amount'}
      />
      <TextField
        label={ct('daysLabel')}
        testId="copy-follow-days"
        value={v.days}
        onChange={(s) => setV((o) => ({ ...o, days: s.replace(/\D/g, '') }))}
        inputMode="numeric"
        maxLength={4}
        placeholder={ct('daysPlaceholder', { max: m.windowDays })}
        invalid={err?.field === 'days'}
      />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" type="submit" loading={follow.pending} data-testid="copy-follow-submit">
        {ct('submitFollow')}
      </Button>
    </form>
  );
}

/** A mentor's detail and the follow form (/gdindex/dsFllow?id=). */
export default function MentorPage() {
  const ct = useCopyT();
  const [params] = useSearchParams();
  const q = useMentor(params.get('id') ?? '');
  return (
    <Page title={ct('mentor')} testId="copy-mentor-page">
      {q.data ? (
        <>
          <MentorStats m={q.data} />
          <FollowForm m={q.data} />
        </>
      ) : null}
      {q.error ? <FormError errorKey="mentor_not_exist" /> : null}
    </Page>
  );
}
