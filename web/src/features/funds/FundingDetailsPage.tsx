import { Tabs } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { localBankName } from '@/domain/wallet/banks';
import { ListEmpty, ListLoading, MoreOnScroll } from '@/components/ListState';
import { Page } from '@/components/Page';
import { PullRefresh } from '@/components/PullRefresh';
import { channelName } from '@/domain/wallet/channels';
import { money, taipeiTime } from '@/lib/filters';
import { isSecurityAsset, useFundLineLabel } from '@/lib/fundLines';
import { useTradeT } from '@/domain/trade/texts';
import { type WalletKey, useWalletT } from '@/domain/wallet/texts';
import { type FundRecord, type RecordType, useFundRecords } from './api';
import { groupRecords, tabOf } from './records';
import { amountIn } from './walletValidation';
import '@/domain/wallet/wallet.css';

function Line({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row muted">
      <span>{label}</span>
      <span data-testid={testId}>{children}</span>
    </div>
  );
}

function RecordItem({ r }: { r: FundRecord }) {
  const { t, i18n } = useTranslation();
  const w = useWalletT();
  const tt = useTradeT();
  const lineLabel = useFundLineLabel();
  if (r.type === 'credit') {
    const delta = Number(r.amount) > 0 ? `+${r.amount}` : r.amount;
    return (
      <div className="record" data-testid="fund-record" data-order-no={r.orderNo} data-type="credit" data-status={r.status}>
        <div className="record-row">
          <span className="record-amount" data-testid="fund-record-amount">
            {w('records.credit')} <span className={`num ${Number(r.amount) < 0 ? 'down' : 'up'}`}>{w('credit.delta', { delta })}</span>
          </span>
          <span className={`badge badge-${r.status}`} data-testid="fund-record-status">
            {t(`funds.status.${r.status}`)}
          </span>
        </div>
        <Line label={t('funds.remark')}>{w(`credit.reason.${r.remark}` as WalletKey)}</Line>
        {r.creditScore !== undefined ? (
          <Line label={w('records.creditAfter')}>
            <span className="num">{r.creditScore}</span>
          </Line>
        ) : null}
        <Line label={t('funds.time')}>
          <span className="num">{taipeiTime(r.createdAt)}</span>
        </Line>
      </div>
    );
  }
  const label = lineLabel(r.type);
  return (
    <div className="record" data-testid="fund-record" data-order-no={r.orderNo} data-type={r.type} data-status={r.status}>
      <div className="record-row">
        <span className="record-amount num" data-testid="fund-record-amount">
          {label ? <span data-testid="fund-record-type">{label} </span> : null}
          {isSecurityAsset(r.currency) ? t('funds.shares', { n: r.amount.replace(/\.0+$/, '') }) : `${r.currency} ${money(r.amount)}`}
        </span>
        <span className={`badge badge-${r.status}`} data-testid="fund-record-status">
          {t(`funds.status.${r.status}`)}
        </span>
      </div>
      {r.symbol ? (
        <Line label={tt('fund.instrument')}>
          <span data-testid="quote-name">{r.remark}</span> {r.symbol}
        </Line>
      ) : null}
      {r.settleDate ? (
        <Line label={tt('fund.settleDate')} testId="fund-record-settle">
          <span className="num">{r.settleDate}</span>
        </Line>
      ) : null}
      <Line label={t('funds.orderNo')}>
        <span className="num">{r.orderNo}</span>
      </Line>
      {r.type === 'withdraw' && r.bankName ? (
        <Line label={w('records.withdrawTo')} testId="fund-record-card">
          {`${localBankName(r.bankName, i18n.language)} **** ${r.cardLast4 ?? ''}`}
        </Line>
      ) : null}
      {r.channelName ? <Line label={t('funds.channel')}>{channelName(t, r.channelName)}</Line> : null}
      <Line label={t('funds.time')}>
        <span className="num">{taipeiTime(r.createdAt)}</span>
      </Line>
      {r.remark && !r.symbol ? (
        <Line label={t('funds.remark')} testId="fund-record-remark">
          {r.remark}
        </Line>
      ) : null}
    </div>
  );
}

/** Both legs of one exchange: what was paid, what was received, at which rate. */
function ExchangeItem({ orderNo, paid, received }: { orderNo: string; paid: FundRecord; received: FundRecord }) {
  const { t } = useTranslation();
  const w = useWalletT();
  return (
    <div className="record" data-testid="fund-record" data-order-no={orderNo} data-type="exchange" data-status={received.status}>
      <div className="record-row">
        <span className="record-amount" data-testid="fund-record-amount">
          {w('records.exchange')} {w('records.exchangePair', { from: paid.currency, to: received.currency })}
        </span>
        <span className={`badge badge-${received.status}`} data-testid="fund-record-status">
          {t(`funds.status.${received.status}`)}
        </span>
      </div>
      <Line label={w('records.paid')} testId="fund-record-paid">
        <span className="num">{`${paid.currency} ${amountIn(paid.amount, paid.currency)}`}</span>
      </Line>
      <Line label={w('records.received')} testId="fund-record-received">
        <span className="num">{`${received.currency} ${amountIn(received.amount, received.currency)}`}</span>
      </Line>
      {received.rate ?? paid.rate ? (
        <Line label={w('records.rate')}>
          <span className="num">{w('exchange.rateValue', { from: paid.currency, rate: received.rate ?? paid.rate, to: received.currency })}</span>
        </Line>
      ) : null}
      <Line label={t('funds.orderNo')}>
        <span className="num">{orderNo}</span>
      </Line>
      <Line label={t('funds.time')}>
        <span className="num">{taipeiTime(received.createdAt)}</span>
      </Line>
    </div>
  );
}

function RecordList({ type }: { type: RecordType }) {
  const q = useFundRecords(type);
  const entries = groupRecords(q.data?.pages.flatMap((p) => p.items) ?? []);
  return (
    <PullRefresh onRefresh={() => q.refetch()}>
      <div className="record-list" data-testid={`records-${type}`}>
        {q.isPending ? (
          <ListLoading />
        ) : entries.length === 0 ? (
          <ListEmpty />
        ) : (
          <>
            {entries.map((e) =>
              e.kind === 'exchange' ? <ExchangeItem key={`x-${e.orderNo}`} orderNo={e.orderNo} paid={e.paid} received={e.received} /> : <RecordItem key={`${e.r.orderNo}-${e.r.currency}`} r={e.r} />,
            )}
            <MoreOnScroll q={q} />
          </>
        )}
      </div>
    </PullRefresh>
  );
}

/**
 * Fund records: the spec's stored value and withdrawal tabs, then exchanges, and "all", which
 * adds the credit score changes (each with its reason) to every money movement, newest first.
 * ?tab= opens a tab (the withdrawal screen lands on its tab).
 */
export default function FundingDetailsPage() {
  const { t } = useTranslation();
  const w = useWalletT();
  const [params] = useSearchParams();
  const wanted = params.get('tab');
  const [tab, setTab] = useState<RecordType>(() => tabOf(wanted));
  // The screen is kept alive: a later visit with another ?tab= switches to it.
  useEffect(() => {
    if (wanted) setTab(tabOf(wanted));
  }, [wanted]);
  return (
    <Page title={t('funds.recordsTitle')} testId="funding-details-page">
      <Tabs activeKey={tab} onChange={(k) => setTab(k as RecordType)} className="record-tabs">
        <Tabs.Tab title={<span data-testid="tab-deposit">{t('funds.tabDeposit')}</span>} key="deposit" />
        <Tabs.Tab title={<span data-testid="tab-withdraw">{t('funds.tabWithdraw')}</span>} key="withdraw" />
        <Tabs.Tab title={<span data-testid="tab-exchange">{w('records.tabExchange')}</span>} key="exchange" />
        <Tabs.Tab title={<span data-testid="tab-all">{w('records.tabAll')}</span>} key="all" />
      </Tabs>
      <RecordList key={tab} type={tab} />
    </Page>
  );
}
