import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '@/components/AppLink';
import { FormError } from '@/components/FormError';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { Row } from '@/domain/offering/Row';
import { LoanFigures } from '@/domain/wallet/LoanFigures';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import type { FieldError } from '@/lib/validation';
import { type BorrowBody, type CreditSummary, type LoanRecord, type RepayBody, creditApi, creditKeys, useCreditSummary, useMyLoans } from './api';
import { useCreditT } from './texts';
import { type AmountValues, validateBorrow, validateRepay } from './validation';
import './credit.css';

/** The assets a loan shows: debt, loanable and borrowed amounts, with the limit they come from. */
function Assets({ s }: { s: CreditSummary }) {
  const ct = useCreditT();
  return (
    <div className="card credit-assets" data-testid="credit-assets">
      <LoanFigures s={s} prefix="credit" className="credit-figures" />
      <Row label={ct('interest')} testId="credit-interest">
        {money(s.interest)}
      </Row>
      <Row label={ct('limit')} testId="credit-limit">
        {money(s.limit)}
      </Row>
      <Row label={ct('used')}>{money(s.used)}</Row>
      <Row label={ct('score')}>{s.score}</Row>
    </div>
  );
}

/** The published rule the limit and the interest come from. */
function Rule({ s }: { s: CreditSummary }) {
  const ct = useCreditT();
  const pct = (r: string) => String(Math.round(Number(r) * 10000) / 100);
  return (
    <div className="card" data-testid="credit-rule">
      <div className="record-row">
        <span>{ct('rule.title')}</span>
      </div>
      <p className="muted credit-rule-text">{ct('rule.formula')}</p>
      <Row label={ct('rule.collateral')}>{money(s.collateral)}</Row>
      <Row label={ct('rule.band')}>{money(s.band)}</Row>
      <ul className="credit-rule-list muted">
        {s.rule.haircuts.map((h) => (
          <li key={h.class}>{ct('rule.haircut', { cls: ct(`rule.cls.${h.class}` as 'rule.cls.stock'), rate: `${pct(h.rate)}%` })}</li>
        ))}
        {s.rule.bands.map((b) => (
          <li key={b.minScore}>{ct('rule.bandLine', { min: b.minScore, amount: money(b.amount) })}</li>
        ))}
        <li data-testid="credit-rate">{ct('rule.rate', { rate: pct(s.annualRate), days: s.rule.daysPerYear })}</li>
      </ul>
    </div>
  );
}

/** An amount and the fund password, checked by validate, sent by send. */
function AmountForm(p: {
  testId: string;
  placeholder: string;
  submitText: string;
  validate: (v: AmountValues) => FieldError<keyof AmountValues> | null;
  send: (v: AmountValues) => void;
  pending: boolean;
  initial?: string;
  onCancel?: () => void;
}) {
  const ct = useCreditT();
  const [v, setV] = useState<AmountValues>({ amount: p.initial ?? '', fundPassword: '' });
  const [err, setErr] = useState<FieldError<keyof AmountValues> | null>(null);
  const set = (k: keyof AmountValues) => (val: string) => {
    setV((o) => ({ ...o, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const fe = p.validate(v);
    setErr(fe);
    if (!fe) p.send(v);
  };
  return (
    <form onSubmit={onSubmit} noValidate data-testid={p.testId} className="credit-form">
      <TextField
        label={ct('amount')}
        testId={`${p.testId}-amount`}
        value={v.amount}
        onChange={(s) => set('amount')(s.replace(/\D/g, ''))}
        inputMode="numeric"
        maxLength={10}
        placeholder={p.placeholder}
        invalid={err?.field === 'amount'}
      />
      <TextField
        label={ct('fundPassword')}
        testId={`${p.testId}-fund-password`}
        type="password"
        value={v.fundPassword}
        onChange={set('fundPassword')}
        inputMode="numeric"
        maxLength={64}
        autoComplete="off"
        invalid={err?.field === 'fundPassword'}
      />
      <FormError errorKey={err?.key ?? null} />
      <div className="credit-actions">
        {p.onCancel ? (
          <Button block fill="outline" shape="rounded" onClick={p.onCancel} data-testid={`${p.testId}-cancel`}>
            {ct('cancel')}
          </Button>
        ) : null}
        <Button block color="primary" shape="rounded" type="submit" loading={p.pending} data-testid={`${p.testId}-submit`}>
          {p.submitText}
        </Button>
      </div>
    </form>
  );
}

function BorrowForm({ s }: { s: CreditSummary }) {
  const { t } = useTranslation();
  const ct = useCreditT();
  const qc = useQueryClient();
  const borrow = useAction((body: BorrowBody, key) => creditApi.borrow(body, key), {
    onSuccess: () => {
      toast.show(t('msg.loan_applied'));
      void qc.invalidateQueries({ queryKey: creditKeys.all });
    },
  });
  return (
    <div className="card">
      <div className="record-row">
        <span>{ct('borrow')}</span>
      </div>
      <AmountForm
        testId="credit-borrow"
        placeholder={ct('amountPlaceholder', { min: money(s.minLoan), max: money(s.loanable) })}
        submitText={ct('submit')}
        validate={(v) => validateBorrow(v, s.loanable, s.minLoan)}
        send={(v) => borrow.run({ amount: v.amount, fundPassword: v.fundPassword })}
        pending={borrow.pending}
      />
    </div>
  );
}

function OutstandingLoan({ l }: { l: LoanRecord }) {
  const { t } = useTranslation();
  const ct = useCreditT();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const repay = useAction((body: RepayBody, key) => creditApi.repay(l.orderNo, body, key), {
    onSuccess: () => {
      toast.show(t('msg.loan_repaid'));
      setOpen(false);
      void qc.invalidateQueries({ queryKey: creditKeys.all });
    },
  });
  return (
    <div className="record" data-testid="credit-outstanding" data-order-no={l.orderNo}>
      <div className="record-row">
        <span className="record-amount num">{money(l.amount)}</span>
        <span className="badge badge-pending">{ct('status.outstanding')}</span>
      </div>
      <Row label={ct('outstanding')} testId="credit-outstanding-debt">
        {money(l.debt)}
      </Row>
      <Row label={ct('interest')}>{money(l.interest)}</Row>
      <Row label={ct('orderNo')}>{l.orderNo}</Row>
      {open ? (
        <AmountForm
          testId="credit-repay"
          placeholder={money(l.debt)}
          submitText={ct('repaySubmit')}
          initial={String(Math.ceil(Number(l.debt)))}
          validate={(v) => validateRepay(v, l.debt)}
          send={(v) => repay.run({ amount: v.amount, fundPassword: v.fundPassword })}
          pending={repay.pending}
          onCancel={() => setOpen(false)}
        />
      ) : (
        <Button className="credit-repay-open" block color="primary" shape="rounded" size="small" onClick={() => setOpen(true)} data-testid="credit-repay-open">
          {ct('repay')}
        </Button>
      )}
    </div>
  );
}

function Seat({ s }: { s: CreditSummary }) {
  const { t } = useTranslation();
  const ct = useCreditT();
  const qc = useQueryClient();
  const apply = useAction((_: null, key) => creditApi.applySeat(key), {
    onSuccess: () => {
      toast.show(t('msg.seat_applied'));
      void qc.invalidateQueries({ queryKey: creditKeys.all });
    },
  });
  return (
    <div className="card" data-testid="credit-seat" data-seat={s.seat}>
      <Row label={ct('seat.title')} testId="credit-seat-status">
        {ct(`seat.${s.seat}`)}
      </Row>
      {s.seat === 'none' ? (
        <Button block fill="outline" shape="rounded" size="small" loading={apply.pending} onClick={() => apply.run(null)} data-testid="credit-seat-apply">
          {ct('seat.apply')}
        </Button>
      ) : null}
    </div>
  );
}

/** Borrow and repay: the loan assets, the limit's rule, a new application, the loans being repaid, the seat account. */
export default function BorrowPage() {
  const ct = useCreditT();
  const s = useCreditSummary();
  const loans = useMyLoans();
  const outstanding = (loans.data?.pages.flatMap((p) => p.items) ?? []).filter((l) => l.status === 'outstanding');
  return (
    <Page
      title={ct('title')}
      testId="credit-page"
      right={
        <AppLink to="/user/jkjl" className="nav-right-link" data-testid="credit-records-link">
          {ct('records')}
        </AppLink>
      }
    >
      {s.data ? (
        <>
          <Assets s={s.data} />
          {outstanding.map((l) => (
            <OutstandingLoan key={l.orderNo} l={l} />
          ))}
          <BorrowForm s={s.data} />
          <Rule s={s.data} />
          <Seat s={s.data} />
        </>
      ) : null}
    </Page>
  );
}
