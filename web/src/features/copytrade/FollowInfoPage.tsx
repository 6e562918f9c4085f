import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FormError } from '@/components/FormError';
import { Page } from '@/components/Page';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money, taipeiTime } from '@/lib/filters';
import { messageKey } from '@/lib/validation';
import { toast } from '@/lib/toast';
import { type FollowDetail, copyApi, copyKeys, useFollow } from './api';
import { FollowProfit, StateBadge } from './parts';
import { useCopyT } from './texts';

function Stop({ id }: { id: string }) {
  const { t } = useTranslation();
  const ct = useCopyT();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const stop = useAction((close: boolean, key) => copyApi.stop(id, close, key), {
    onSuccess: () => {
      toast.show(t('msg.follow_stopped'));
      setOpen(false);
      void qc.invalidateQueries({ queryKey: copyKeys.all });
    },
  });
  if (!open) {
    return (
      <Button block color="danger" fill="outline" shape="rounded" onClick={() => setOpen(true)} data-testid="copy-stop">
        {ct('stop')}
      </Button>
    );
  }
  return (
    <div className="card" data-testid="copy-stop-choice">
      <p className="muted">{ct('stopConfirm')}</p>
      <div className="copy-actions">
        <Button block shape="rounded" loading={stop.pending} onClick={() => stop.run(false)} data-testid="copy-stop-keep">
          {ct('stopKeep')}
        </Button>
        <Button block color="primary" shape="rounded" loading={stop.pending} onClick={() => stop.run(true)} data-testid="copy-stop-close">
          {ct('stopClose')}
        </Button>
      </div>
      <Button block fill="none" size="small" onClick={() => setOpen(false)} data-testid="copy-stop-cancel">
        {ct('cancel')}
      </Button>
    </div>
  );
}

/** The last mirrored order the account refused (a short it may not make, say), and why. */
function Refusal({ r }: { r: NonNullable<FollowDetail['follow']['lastRefusal']> }) {
  const { t } = useTranslation();
  const ct = useCopyT();
  return (
    <div className="card" data-testid="copy-refusal" data-reason={r.reason} data-direction={r.direction}>
      <div className="record-row">
        <span>{ct('refused')}</span>
        <span className="muted">{taipeiTime(r.at)}</span>
      </div>
      <div data-text="data">{ct('refusedWhat', { symbol: r.symbol, direction: ct(`direction.${r.direction}`), n: r.shares })}</div>
      <div className="field-error" role="note">
        {t(messageKey(r.reason) as 'common.error')}
      </div>
    </div>
  );
}

function Detail({ d }: { d: FollowDetail }) {
  const ct = useCopyT();
  const f = d.follow;
  return (
    <>
      <div className="card" data-testid="copy-follow-detail" data-state={f.state}>
        <div className="record-row">
          <span>
            {ct('mentor')}: <span data-text="data">{f.mentorName}</span>
          </span>
          <StateBadge state={f.state} />
        </div>
        <Row label={ct('committed')} testId="copy-follow-committed">
          {money(f.amount)}
        </Row>
        <Row label={ct('spentTotal')} testId="copy-follow-spent">
          {money(f.spent)}
        </Row>
        <Row label={ct('remaining')}>{money(f.remaining)}</Row>
        <FollowProfit f={f} />
        {f.current ? (
          <>
            <Row label={ct('realised')} testId="copy-follow-realised">
              {money(f.current.realised)}
            </Row>
            <Row label={ct('unrealised')} testId="copy-follow-unrealised">
              {money(f.current.unrealised)}
            </Row>
            <Row label={ct('shareEstimate')} testId="copy-follow-share-estimate">
              {money(f.current.share)}
            </Row>
            <p className="muted copy-note">{ct('currentNote')}</p>
          </>
        ) : null}
        {f.state === 'stopping' ? (
          <p className="muted copy-note" data-testid="copy-follow-stopping">
            {ct('stoppingNote')}
          </p>
        ) : null}
        {f.state === 'ended' || f.state === 'cancelled' ? (
          <>
            <Row label={ct('released')}>{money(f.released)}</Row>
            <Row label={ct('share')}>{money(f.share)}</Row>
          </>
        ) : null}
        <Row label={ct('stats.profitShare')}>{`${f.profitShare}%`}</Row>
        <Row label={ct('ends')}>{taipeiTime(f.ends)}</Row>
      </div>
      {f.lastRefusal ? <Refusal r={f.lastRefusal} /> : null}
      {f.state === 'in_progress' || f.state === 'stopping' ? <Stop id={f.followId} /> : null}
      <div className="copy-section-title">{ct('positions')}</div>
      {d.positions.map((p) => (
        <div className="record" key={p.positionId} data-testid="copy-position" data-direction={p.direction}>
          <Row label={`${p.symbol} ${ct(`direction.${p.direction}`)}`}>{ct('shares', { n: p.shares })}</Row>
        </div>
      ))}
      <div className="copy-section-title">{ct('orders')}</div>
      {d.orders.length === 0 ? <p className="muted">{ct('ordersEmpty')}</p> : null}
      {d.orders.map((o) => (
        <div
          className="record"
          key={o.orderNo}
          data-testid="copy-order"
          data-order-no={o.orderNo}
          data-side={o.side}
          data-direction={o.direction}
          data-status={o.status}
        >
          <div className="record-row">
            <span>
              {ct(`side.${o.side}`)} {o.direction === 'short' ? `${ct('direction.short')} ` : null}
              <span data-text="data">{`${o.symbol} ${o.name}`}</span>
            </span>
            <span className="badge">{ct(`orderStatus.${o.status}`)}</span>
          </div>
          <Row label={ct('shares', { n: o.filled })}>{money(o.price)}</Row>
          <div className="muted copy-note" data-testid="copy-order-origin">
            {ct('copiedFrom', { name: '' })}
            <span data-text="data">{f.mentorName}</span>
          </div>
          <Row label={o.orderNo}>{taipeiTime(o.createdAt)}</Row>
        </div>
      ))}
    </>
  );
}

/** One follow (/gdindex/dsFllowInfo?id=): state, commitment, spent, the mirrored orders, P&L, stop. */
export default function FollowInfoPage() {
  const ct = useCopyT();
  const [params] = useSearchParams();
  const q = useFollow(params.get('id') ?? '');
  return (
    <Page title={ct('detail')} testId="copy-follow-page">
      {q.data ? <Detail d={q.data} /> : null}
      {q.error ? <FormError errorKey="follow_not_found" /> : null}
    </Page>
  );
}
