import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { api, type BodyOf, type DataOf } from '@/lib/api/client';
import { taipeiTime } from '@/lib/filters';
import { toast, toastMessage } from '@/lib/toast';
import { ConsoleNav } from './ConsoleNav';
import { reasonOK } from './form';
import { ReasonInput } from './ReasonInput';
import './console.css';

type Member = DataOf<'/api/vue/ops/members', 'get'>['items'][number];
type Flag = BodyOf<'/api/vue/ops/members/{account}/flags'>['flag'];
const FLAGS: Flag[] = ['frozen', 'login_banned', 'trade_banned', 'withdrawal_banned', 'disabled'];

function MemberItem({ m }: { m: Member }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const setFlag = useAction(
    (body: BodyOf<'/api/vue/ops/members/{account}/flags'>, key) =>
      api.post('/api/vue/ops/members/{account}/flags', body, { params: { account: m.account }, idempotencyKey: key }),
    {
      onSuccess: () => {
        toast.show(t('console.saved'));
        setReason('');
        void qc.invalidateQueries({ queryKey: ['console', 'members'] });
      },
    },
  );
  const change = (flag: Flag, on: boolean) => {
    if (!reasonOK(reason)) toastMessage('remark_required');
    else setFlag.run({ flag, on, reason: reason.trim() });
  };
  return (
    <div className="record" data-testid="ops-member" data-account={m.account}>
      <div className="record-row">
        <strong className="num">{m.account}</strong>
        <span className="muted">{m.role}</span>
      </div>
      <div className="muted">
        {m.realNameStatus} · <span className="num">{taipeiTime(m.createdAt)}</span>
      </div>
      {/* Staff accounts are managed with `lotbook user` on the server, never here. */}
      {m.role === 'member' ? (
        <>
          <ReasonInput label={t('console.flagReason')} value={reason} onChange={setReason} testId="member-flag-reason" />
          {FLAGS.map((f) => {
            const on = m.flags.includes(f);
            return (
              <div className="record-row" key={f} data-testid={`member-flag-${f}`} data-on={on}>
                <span>{t(`console.flag.${f}`)}</span>
                <Button size="mini" color={on ? 'primary' : 'default'} loading={setFlag.pending} onClick={() => change(f, !on)} data-testid={`member-flag-${f}-toggle`}>
                  {t(on ? 'console.clear' : 'console.set')}
                </Button>
              </div>
            );
          })}
        </>
      ) : null}
    </div>
  );
}

/** Ops find a member by phone or account and set or clear the account's flags, with a reason. */
export default function MembersPage() {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const members = useQuery({
    queryKey: ['console', 'members', q] as const,
    queryFn: ({ signal }) => api.get('/api/vue/ops/members', { query: { q: q.trim(), size: 20 }, signal }),
  });
  return (
    <Page title={t('console.members')} testId="ops-members-page">
      <ConsoleNav />
      <input className="console-search" type="search" placeholder={t('console.search')} aria-label={t('console.search')} value={q} maxLength={32} onChange={(e) => setQ(e.target.value)} data-testid="member-search" />
      {members.isPending ? <ListLoading /> : members.data?.items.length ? members.data.items.map((m) => <MemberItem key={m.account} m={m} />) : <ListEmpty />}
    </Page>
  );
}
