import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money, taipeiTime } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { useTranslation } from 'react-i18next';
import { type QuantSubscription, quantApi, quantKeys, useMySubscriptions } from './api';
import { useQuantT } from './texts';
import './quant.css';

function Subscription({ s }: { s: QuantSubscription }) {
  const { t, i18n } = useTranslation();
  const qt = useQuantT();
  const qc = useQueryClient();
  const leave = useAction((close: boolean, key) => quantApi.leave(s.subId, close, key), {
    onSuccess: () => {
      toast.show(t('msg.quant_left'));
      void qc.invalidateQueries({ queryKey: quantKeys.all });
    },
  });
  const ask = () =>
    void import('antd-mobile/es/components/dialog').then(({ default: Dialog }) =>
      Dialog.show({
        title: qt('leaveTitle'),
        content: qt('leaveText'),
        closeOnAction: true,
        actions: [
          { key: 'close', text: qt('close'), danger: true, onClick: () => leave.run(true) },
          { key: 'keep', text: qt('keep'), onClick: () => leave.run(false) },
          { key: 'cancel', text: qt('cancel') },
        ],
      }),
    );
  const running = s.state === 'running';
  const profit = Number(s.profit);
  return (
    <div className="card record" data-testid="quant-sub" data-sub-id={s.subId} data-state={s.state}>
      <div className="record-row">
        <span className="quant-name">{i18n.language === 'en' ? s.nameEn : s.nameTw}</span>
        <span className={`badge ${running ? 'badge-pending' : 'badge-done'}`} data-testid="quant-sub-state">
          {qt(running ? 'state.running' : 'state.ended')}
        </span>
      </div>
      <Row label={qt('amount')}>{money(s.amount)}</Row>
      <Row label={qt('held')} testId="quant-sub-held">
        {money(s.held)}
      </Row>
      <Row label={qt('spent')}>{money(s.spent)}</Row>
      <Row label={qt('proceeds')}>{money(s.proceeds)}</Row>
      <Row label={qt('orders')} testId="quant-sub-orders">
        {s.orders}
      </Row>
      <Row label={qt('profit')} testId="quant-sub-profit">
        <span className={profit > 0 ? 'up' : profit < 0 ? 'down' : undefined}>{money(s.profit)}</span>
      </Row>
      {s.positions.map((p) => (
        <Row key={p.positionId} label={`${qt('positions')} ${p.symbol}`}>
          {qt('shares', { n: p.shares })} · {money(p.value)}
        </Row>
      ))}
      <div className="muted quant-note num" data-text="data">
        {s.subId} · {taipeiTime(s.createdAt)}
      </div>
      {running ? (
        <Button block fill="outline" shape="rounded" loading={leave.pending} onClick={ask} data-testid="quant-leave">
          {qt('leave')}
        </Button>
      ) : null}
    </div>
  );
}

/** The member's subscriptions: state, amounts, orders placed, profit or loss, and leaving. */
export default function MinePage() {
  const qt = useQuantT();
  const q = useMySubscriptions();
  return (
    <Page title={qt('mine')} testId="quant-mine">
      {q.isPending ? <ListLoading /> : null}
      {q.data && q.data.length === 0 ? <ListEmpty text={qt('empty')} /> : null}
      {q.data?.map((s) => <Subscription key={s.subId} s={s} />)}
    </Page>
  );
}
