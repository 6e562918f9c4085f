import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { ListEmpty } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type LendBody, type LendingHolding, type LendingSummary, lendingApi, lendingKeys, percent, useLendingSummary } from './api';
import { useLendingT } from './texts';
import { type LendValues, validateLend } from './validation';
import './lending.css';

/** The published rule: the fee formula, the ceiling, and whether the channel is open. */
function Rule({ s }: { s: LendingSummary }) {
  const lt = useLendingT();
  return (
    <div className="card" data-testid="lending-rule" data-open={s.open}>
      <div className="record-row">
        <span>{s.open ? lt('channelOpen') : lt('channelClosed')}</span>
      </div>
      <p className="muted lending-rule">{lt('rule', { days: s.daysPerYear, max: percent(s.maxRate) })}</p>
    </div>
  );
}

function LendForm({ h, open }: { h: LendingHolding; open: boolean }) {
  const { t } = useTranslation();
  const lt = useLendingT();
  const qc = useQueryClient();
  const [v, setV] = useState<LendValues>({ shares: h.lendable > 0 ? String(h.lendable) : '' });
  const [err, setErr] = useState<FieldError<keyof LendValues> | null>(null);
  const lend = useAction((body: LendBody, key) => lendingApi.lend(body, key), {
    onSuccess: () => {
      toast.show(t('msg.stock_lent'));
      void qc.invalidateQueries({ queryKey: lendingKeys.all });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = validateLend(v, h.lendable);
    setErr(fe);
    if (fe) return;
    void Dialog.confirm({
      content: lt('lendConfirm', { shares: v.shares, symbol: h.symbol, rate: percent(h.rate) }),
      confirmText: lt('lend'),
      cancelText: t('common.cancel'),
      onConfirm: () => lend.run({ symbol: h.symbol, shares: Number(v.shares) }),
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="lending-form" data-testid="lending-form">
      <TextField
        label={lt('shares')}
        testId="lending-shares"
        value={v.shares}
        onChange={(s) => {
          setV({ shares: s.replace(/\D/g, '') });
          setErr(null);
        }}
        inputMode="numeric"
        maxLength={10}
        placeholder={lt('sharesPlaceholder', { max: h.lendable })}
        invalid={err !== null}
      />
      <FormError errorKey={err?.key ?? null} />
      <div className="lending-actions">
        <Button block color="primary" shape="rounded" type="submit" disabled={!open} loading={lend.pending} data-testid="lending-submit">
          {lt('lend')}
        </Button>
      </div>
    </form>
  );
}

function Holding({ h, open }: { h: LendingHolding; open: boolean }) {
  const lt = useLendingT();
  return (
    <div className="record" data-testid="lending-holding" data-symbol={h.symbol}>
      <div className="record-row">
        <span className="record-amount lending-name">
          <span className="num">{h.symbol}</span> <span data-text="data">{h.name}</span>
        </span>
        <span className="num" data-testid="lending-rate">
          {h.rate ? `${percent(h.rate)}%` : lt('noRate')}
        </span>
      </div>
      <Row label={lt('free')}>{h.free}</Row>
      <Row label={lt('lent')} testId="lending-lent">
        {h.lent}
      </Row>
      <Row label={lt('lendable')} testId="lending-lendable">
        {h.lendable}
      </Row>
      {h.rate ? (
        <>
          <Row label={lt('quota')}>{Math.max(0, h.quota - h.used)}</Row>
          <Row label={lt('price')}>{money(h.price)}</Row>
          <Row label={lt('dailyFee')} testId="lending-daily-fee">
            {money(h.dailyFee)}
          </Row>
          {h.lendable > 0 ? <LendForm h={h} open={open} /> : null}
        </>
      ) : null}
    </div>
  );
}

/** Stock lending: the member's holdings with the published rate and an estimated daily fee, and a lending form for each. */
export default function LendPage() {
  const lt = useLendingT();
  const s = useLendingSummary();
  return (
    <Page
      title={lt('title')}
      testId="lending-page"
      right={
        <AppLink to="/lending/records" className="nav-right-link" data-testid="lending-records-link">
          {lt('records')}
        </AppLink>
      }
    >
      {s.data ? (
        <>
          <Rule s={s.data} />
          <div className="record-list" data-testid="lending-holdings">
            {s.data.holdings.length === 0 ? (
              <ListEmpty text={lt('holdingsEmpty')} />
            ) : (
              s.data.holdings.map((h) => <Holding key={h.symbol} h={h} open={s.data.open} />)
            )}
          </div>
        </>
      ) : null}
    </Page>
  );
}
