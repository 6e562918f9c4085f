import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/FormError';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type CopyTradeRules, type Mentor, type ProfileBody, copyApi, copyKeys, useCopyRules, useMyMentor } from './api';
import { MentorStats } from './parts';
import { Rules } from './RulesPage';
import { useCopyT } from './texts';
import { type ProfileError, type ProfileValues, validateProfile } from './validation';

function ProfileForm({ r, m }: { r: CopyTradeRules; m?: Mentor }) {
  const { t } = useTranslation();
  const ct = useCopyT();
  const qc = useQueryClient();
  const [v, setV] = useState<ProfileValues>({
    displayName: m?.displayName ?? '',
    minAmount: m ? String(Math.round(Number(m.minAmount))) : '',
    windowDays: m ? String(m.windowDays) : '30',
    profitShare: m?.profitShare ?? '',
  });
  const [err, setErr] = useState<ProfileError>(null);
  const save = useAction((body: ProfileBody, key) => copyApi.setProfile(body, key), {
    onSuccess: () => {
      toast.show(t('msg.mentor_saved'));
      void qc.invalidateQueries({ queryKey: copyKeys.all });
    },
  });
  const set = (k: keyof ProfileValues) => (s: string) => setV((o) => ({ ...o, [k]: s }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateProfile(v, r.minFollowFloor, r.maxWindowDays, r.maxProfitShare);
    setErr(fe);
    if (!fe)
      save.run({ displayName: v.displayName.trim(), minAmount: v.minAmount, windowDays: Number(v.windowDays), profitShare: v.profitShare });
  };
  return (
    <form className="card" onSubmit={onSubmit} noValidate data-testid="copy-profile-form">
      <TextField label={ct('profile.name')} testId="copy-profile-name" value={v.displayName} onChange={set('displayName')} maxLength={24}
        invalid={err?.field === 'displayName'} />
      <TextField label={ct('profile.minAmount')} testId="copy-profile-min" value={v.minAmount} inputMode="numeric" maxLength={10}
        onChange={(s) => set('minAmount')(s.replace(/\D/g, ''))} placeholder={money(r.minFollowFloor)} invalid={err?.field === 'minAmount'} />
      <TextField label={ct('profile.window')} testId="copy-profile-window" value={v.windowDays} inputMode="numeric" maxLength={4}
        onChange={(s) => set('windowDays')(s.replace(/\D/g, ''))} invalid={err?.field === 'windowDays'} />
      <TextField label={ct('profile.share')} testId="copy-profile-share" value={v.profitShare} inputMode="decimal" maxLength={5}
        onChange={set('profitShare')} placeholder={ct('profile.sharePlaceholder', { max: r.maxProfitShare })} invalid={err?.field === 'profitShare'} />
      <FormError errorKey={err?.key ?? null} />
      <Button block color="primary" shape="rounded" type="submit" loading={save.pending} data-testid="copy-profile-submit">
        {ct('profile.submit')}
      </Button>
    </form>
  );
}

/** Become a mentor (/gdindex/mentor, from mine): the profile form within the published bounds. */
export default function MentorProfilePage() {
  const ct = useCopyT();
  const rules = useCopyRules();
  const me = useMyMentor();
  const m = me.data?.mentor;
  return (
    <Page title={m ? ct('profile.edit') : ct('profile.title')} testId="copy-profile-page">
      {m ? (
        <>
          <MentorStats m={m} />
          <Row label={ct('profile.income')} testId="copy-share-income">
            {money(me.data?.shareIncome)}
          </Row>
        </>
      ) : null}
      {rules.data && me.data ? <ProfileForm key={m ? 'edit' : 'new'} r={rules.data} m={m} /> : null}
      {rules.data ? <Rules r={rules.data} /> : null}
    </Page>
  );
}
