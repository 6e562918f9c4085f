import { InfiniteScroll, Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { money, taipeiTime } from '@/lib/filters';
import { type FundRecord, type RecordType, useFundRecords } from './api';

function RecordItem({ r }: { r: FundRecord }) {
  const { t } = useTranslation();
  return (
    <div className="record" data-testid="fund-record" data-order-no={r.orderNo} data-status={r.status}>
      <div className="record-row">
        <span className="record-amount num" data-testid="fund-record-amount">
          {r.currency} {money(r.amount)}
        </span>
        <span className={`badge badge-${r.status}`} data-testid="fund-record-status">
          {t(`funds.status.${r.status}`)}
        </span>
      </div>
      <div className="record-row muted">
        <span>{t('funds.orderNo')}</span>
        <span className="num">{r.orderNo}</span>
      </div>
      {r.channelName ? (
        <div className="record-row muted">
          <span>{t('funds.channel')}</span>
          <span>{r.channelName}</span>
        </div>
      ) : null}
      <div className="record-row muted">
        <span>{t('funds.time')}</span>
        <span className="num">{taipeiTime(r.createdAt)}</span>
      </div>
      {r.remark ? (
        <div className="record-row muted">
          <span>{t('funds.remark')}</span>
          <span data-testid="fund-record-remark">{r.remark}</span>
        </div>
      ) : null}
    </div>
  );
}

function RecordList({ type }: { type: RecordType }) {
  const { t } = useTranslation();
  const q = useFundRecords(type);
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`records-${type}`}>
        {q.isPending ? (
          <ListLoading />
        ) : items.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {items.map((r) => (
              <RecordItem key={r.orderNo} r={r} />
            ))}
            <InfiniteScroll
              hasMore={q.hasNextPage}
              loadMore={async () => {
                await q.fetchNextPage({ throwOnError: true });
              }}
            >
              {(hasMore, failed, retry) =>
                failed ? (
                  <span onClick={() => void retry()}>{t('common.retry')}</span>
                ) : hasMore ? (
                  <span>{t('common.loading')}</span>
                ) : (
                  <span>{t('common.noMore')}</span>
                )
              }
            </InfiniteScroll>
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/** Fund records: stored value (deposits) and withdrawal tabs. */
export default function FundingDetailsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<RecordType>('deposit');
  return (
    <Page title={t('funds.recordsTitle')} testId="funding-details-page">
      <Tabs activeKey={tab} onChange={(k) => setTab(k as RecordType)} className="record-tabs">
        <Tabs.Tab title={<span data-testid="tab-deposit">{t('funds.tabDeposit')}</span>} key="deposit" />
        <Tabs.Tab title={<span data-testid="tab-withdraw">{t('funds.tabWithdraw')}</span>} key="withdraw" />
      </Tabs>
      <RecordList key={tab} type={tab} />
    </Page>
  );
}
