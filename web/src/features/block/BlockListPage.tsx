import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { RecordScreen } from '@/components/RecordScreen';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { money, taipeiWindow } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type ApplyBody, type BlockListing, blockApi, blockKeys, useBlocks } from './api';
import { useBlockT } from './texts';
import { type ApplyValues, validateApply } from './validation';
import { boardLotCost } from '@/domain/trade/cost';
import './block.css';

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="record-row">
      <span className="muted">{label}</span>
      <span className="num" data-testid={testId}>
        {children}
      </span>
    </div>
  );
}

function ApplyForm({ b, onDone }: { b: BlockListing; onDone: () => void }) {
  const { t } = useTranslation();
  const bt = useBlockT();
  const qc = useQueryClient();
  const [v, setV] = useState<ApplyValues>({ lots: String(b.minLots), bid: b.price, password: '' });
  const [err, setErr] = useState<FieldError<keyof ApplyValues> | null>(null);
  const set = (k: keyof ApplyValues) => (val: string) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const apply = useAction((body: ApplyBody, key) => blockApi.apply(b.blockId, body, key), {
    onSuccess: () => {
      toast.show(t('msg.block_applied'));
      void qc.invalidateQueries({ queryKey: blockKeys.all });
      onDone();
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateApply(v, b);
    setErr(fe);
    if (!fe) apply.run({ lots: Number(v.lots), bid: v.bid, ...(b.hasPassword ? { password: v.password } : {}) });
  };
  const valid = validateApply(v, b) === null;
  return (
    <form onSubmit={onSubmit} noValidate data-testid="block-apply-form" className="block-form">
      <TextField
        label={bt('lots')}
        testId="block-lots"
        value={v.lots}
        onChange={(s) => set('lots')(s.replace(/\D/g, ''))}
        inputMode="numeric"
        maxLength={6}
        placeholder={bt('lotsPlaceholder', { min: b.minLots, max: b.dailyCapLots })}
        invalid={err?.field === 'lots'}
      />
      <TextField label={bt('bid')} testId="block-bid" value={v.bid} onChange={set('bid')} inputMode="decimal" maxLength={12} invalid={err?.field === 'bid'} />
      {b.hasPassword ? (
        <TextField
          label={bt('password')}
          testId="block-password"
          type="password"
          value={v.password}
          onChange={set('password')}
          maxLength={64}
          placeholder={bt('passwordPlaceholder')}
          autoComplete="off"
          invalid={err?.field === 'password'}
        />
      ) : null}
      <div className="muted block-estimate" data-testid="block-estimate">
        {valid ? bt('frozen', { amount: money(boardLotCost(Number(v.lots), Number(v.bid))) }) : ''}
      </div>
      <FormError errorKey={err?.key ?? null} />
      <div className="block-actions">
        <Button block fill="outline" shape="rounded" onClick={onDone} data-testid="block-apply-cancel">
          {bt('cancel')}
        </Button>
        <Button block color="primary" shape="rounded" type="submit" loading={apply.pending} data-testid="block-apply-submit">
          {bt('submit')}
        </Button>
      </div>
    </form>
  );
}

function BlockCard({ b, open, onOpen, onClose }: { b: BlockListing; open: boolean; onOpen: () => void; onClose: () => void }) {
  const bt = useBlockT();
  return (
    <div className="record" data-testid="block-item" data-block-id={b.blockId} data-status={b.status}>
      <div className="record-row">
        <span className="record-amount">
          <span data-testid="quote-name">{b.name}</span> <span className="num">{b.symbol}</span>
        </span>
        <span className={`badge badge-block-${b.status}`} data-testid="block-status">
          {bt(`status.${b.status}`)}
        </span>
      </div>
      <Row label={bt('price')} testId="block-price">
        {money(b.price)}
      </Row>
      <Row label={bt('reference')}>{money(b.referencePrice)}</Row>
      {Number(b.premiumRate) !== 0 ? <Row label={bt('premium')}>{`${b.premiumRate}%`}</Row> : null}
      <Row label={bt('minLots')}>{bt('lotsUnit', { n: b.minLots })}</Row>
      <Row label={bt('dailyCap')}>{bt('lotsUnit', { n: b.dailyCapLots })}</Row>
      {b.totalLots > 0 ? (
        <Row label={bt('remainingLots')} testId="block-remaining">
          {`${bt('lotsUnit', { n: b.remainingLots })} / ${bt('lotsUnit', { n: b.totalLots })}`}
        </Row>
      ) : null}
      <Row label={bt('appliedLots')} testId="block-applied">
        {bt('lotsUnit', { n: b.appliedLots })}
      </Row>
      <Row label={bt('filledLots')} testId="block-filled">
        {bt('lotsUnit', { n: b.filledLots })}
      </Row>
      <Row label={bt('window')}>{taipeiWindow(b.opensAt, b.closesAt)}</Row>
      {b.hasPassword ? <div className="muted block-lock">{bt('passwordNeeded')}</div> : null}
      {b.status === 'open' ? (
        open ? (
          <ApplyForm b={b} onDone={onClose} />
        ) : (
          <Button block color="primary" shape="rounded" size="small" onClick={onOpen} data-testid="block-apply">
            {bt('apply')}
          </Button>
        )
      ) : null}
    </div>
  );
}

/** Block bidding: the blocks ops listed, each with its terms and the lots applied and filled; apply to an open one. */
export default function BlockListPage() {
  const bt = useBlockT();
  const q = useBlocks(false);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <RecordScreen
      title={bt('title')}
      testId="block-page"
      listTestId="block-list"
      right={
        <span className="block-links">
          <AppLink to="/block/rules" className="nav-right-link" data-testid="block-rules-link">
            {bt('rules.link')}
          </AppLink>{' '}
          <AppLink to="/block/records" className="nav-right-link" data-testid="block-records-link">
            {bt('records')}
          </AppLink>
        </span>
      }
      pending={q.isPending}
      items={q.data ?? []}
      emptyText={bt('empty')}
      onRefresh={() => q.refetch()}
      itemKey={(b) => b.blockId}
      render={(b) => <BlockCard b={b} open={open === b.blockId} onOpen={() => setOpen(b.blockId)} onClose={() => setOpen(null)} />}
    />
  );
}
