import { useQueryClient } from '@tanstack/react-query';
import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '@/components/ConfirmButton';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money, taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { type LendingRecord, type LendingStatus, lendingApi, lendingKeys, percent, useMyLendings } from './api';
import { useLendingT } from './texts';
import './lending.css';

/** One lending as its member sees it; a lending one may be recalled, after a confirmation. */
export function LendingItem({ l, ops }: { l: LendingRecord; ops?: boolean }) {
  const { t } = useTranslation();
  const lt = useLendingT();
  const qc = useQueryClient();
  const recall = useAction((_: null, key) => lendingApi.recall(l.lendNo, key), {
    onSuccess: () => {
      toast.show(t('msg.stock_recalled'));
      void qc.invalidateQueries({ queryKey: lendingKeys.all });
    },
  });
  return (
    <div className="record" data-testid="lending-record" data-lend-no={l.lendNo} data-status={l.status}>
      <div className="record-row">
        <span className="record-amount lending-name">
          <span className="num">{l.symbol}</span> <span data-text="data">{l.name}</span>
        </span>
        <span className={`badge badge-lending-${l.status}`} data-testid="lending-record-status">
          {lt(`status.${l.status}`)}
        </span>
      </div>
      {ops ? (
        <>
          <Row label={lt('ops.account')}>
            <span data-text="data">{l.account ?? ''}</span>
          </Row>
          <Row label={lt('ops.memberName')}>
            <span data-text="data">{l.memberName || '-'}</span>
          </Row>
        </>
      ) : null}
      <Row label={lt('shares')}>{l.shares}</Row>
      <Row label={lt('rate')}>{`${percent(l.annualRate)}%`}</Row>
      <Row label={lt('fees')} testId="lending-record-fees">
        {money(l.fees)}
      </Row>
      <Row label={lt('lentDay')}>{l.lentDay}</Row>
      {l.accruedThrough ? <Row label={lt('accruedThrough')}>{l.accruedThrough}</Row> : null}
      {l.recalledDay ? <Row label={lt('recalledDay')}>{l.recalledDay}</Row> : null}
      <Row label={lt('lendNo')}>{l.lendNo}</Row>
      <Row label={lt('time')}>{taipeiTime(l.createdAt)}</Row>
      {!ops && l.status === 'lending' ? (
        <ConfirmButton
          block
          color="primary"
          fill="outline"
          shape="rounded"
          size="small"
          loading={recall.pending}
          label={lt('recall')}
          question={lt('recallConfirm', { shares: l.shares, symbol: l.symbol })}
          onConfirm={() => recall.run(null)}
          data-testid="lending-recall"
        />
      ) : null}
    </div>
  );
}

function RecordList({ status }: { status: LendingStatus }) {
  const lt = useLendingT();
  const q = useMyLendings(status);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid="lending-records" data-status={status}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty text={lt('recordsEmpty')} />
        ) : (
          <>
            {items.map((l) => (
              <LendingItem key={l.lendNo} l={l} />
            ))}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** The member's lending records: lending and completed tabs, with the fees earned and a recall button. */
export default function LendingRecordsPage() {
  const lt = useLendingT();
  const [tab, setTab] = useState<LendingStatus>('lending');
  return (
    <Page title={lt('records')} testId="lending-records-page">
      <Tabs activeKey={tab} onChange={(k) => setTab(k as LendingStatus)}>
        <Tabs.Tab title={<span data-testid="lending-tab-lending">{lt('tabs.lending')}</span>} key="lending" />
        <Tabs.Tab title={<span data-testid="lending-tab-completed">{lt('tabs.completed')}</span>} key="completed" />
      </Tabs>
      <RecordList key={tab} status={tab} />
    </Page>
  );
}
