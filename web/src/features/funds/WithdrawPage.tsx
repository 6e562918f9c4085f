import { useQueryClient } from '@tanstack/react-query';
import { Button, CenterPopup, NumberKeyboard, PasscodeInput, type PasscodeInputRef } from 'antd-mobile';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { GateNote } from '@/components/GateNote';
import { FormError } from '@/components/FormError';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { TextField } from '@/components/TextField';
import { useAction } from '@/lib/action';
import { api, ApiError, type BodyOf } from '@/lib/api/client';
import { money } from '@/lib/filters';
import { queryKeys } from '@/lib/query';
import { toast } from '@/lib/toast';
import { useUserInfo } from '@/lib/user';
import type { FieldError } from '@/lib/validation';
import { useWalletT } from '@/domain/wallet/texts';
import { type Card, useCards, useCreditRule } from '@/domain/wallet/api';
import { walletKeys } from '@/domain/wallet/keys';
import { localBankName } from '@/domain/wallet/banks';
import { fundKeys } from './api';
import { formatWeekdays } from './validation';
import { availableIn, useBalances, useWithdrawChannels, withdrawableIn, type WithdrawChannel } from './walletApi';
import { validateWithdraw, withdrawAll, type WithdrawValues } from './walletValidation';
import '@/domain/wallet/wallet.css';

/** The channel's rules as the member sees them: limits, hours, credit score, fund password lock. */
function Rules({ ch, score, threshold }: { ch: WithdrawChannel; score: number; threshold: number | undefined }) {
  const { t } = useTranslation();
  const w = useWalletT();
  const open = ch.openNow || ch.window.alwaysOpen;
  const hours = t('funds.weekdaysRange', { days: formatWeekdays(ch.window.weekdays, t('weekdays', { returnObjects: true }), t('funds.daySeparator')), open: ch.window.open, close: ch.window.close });
  const windowText = ch.window.alwaysOpen ? t('funds.alwaysOpen') : ch.window.closedOnHolidays ? t('funds.withHolidays', { value: hours }) : hours;
  return (
    <div className="card" data-testid="withdraw-rules">
      <div className="record-row">
        <strong>{w('withdraw.rules')}</strong>
        <span className={`badge ${open ? 'badge-approved' : 'badge-unverified'}`} data-testid="withdraw-open" data-open={open}>
          {t(open ? 'funds.openNow' : 'funds.closedNow')}
        </span>
      </div>
      <ul className="wallet-rules">
        <li data-testid="withdraw-limits">{w('withdraw.limits', { min: `${ch.currency} ${money(ch.min)}`, max: money(ch.max) })}</li>
        <li data-testid="withdraw-window">{w('withdraw.window', { value: windowText })}</li>
        {threshold !== undefined ? <li data-testid="withdraw-credit-rule">{w('withdraw.creditRule', { threshold, score })}</li> : null}
        <li>{w('withdraw.lockRule')}</li>
        <li>{w('withdraw.pendingRule')}</li>
      </ul>
    </div>
  );
}

function CardPicker({ cards, value, onChange, invalid }: { cards: Card[]; value: string; onChange: (id: string) => void; invalid: boolean }) {
  const w = useWalletT();
  const { i18n } = useTranslation();
  return (
    <div className={invalid ? 'field invalid' : 'field'}>
      <div className="field-label">{w('withdraw.card')}</div>
      {cards.length === 0 ? (
        <GateNote
          note={w('withdraw.noCards')}
          to="/user/WithCard"
          link={w('withdraw.addCard')}
          testId="withdraw-no-cards"
          linkTestId="withdraw-add-card"
        />
      ) : (
        <div className="card-picker" role="radiogroup">
          {cards.map((c) => (
            <button
              type="button"
              role="radio"
              aria-checked={c.id === value}
              key={c.id}
              className={c.id === value ? 'card-option selected' : 'card-option'}
              data-testid={`withdraw-card-${c.last4}`}
              data-card-id={c.id}
              onClick={() => onChange(c.id)}
            >
              <span>{localBankName(c.bankName, i18n.language)}</span>
              <span className="num">{c.cardNumberMasked}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The fund password on the kit's number keyboard; sends as soon as six digits are in. */
function FundPasswordPopup(p: { open: boolean; onClose: () => void; onFill: (code: string) => void; value: string; setValue: (v: string) => void; busy: boolean }) {
  const w = useWalletT();
  const ref = useRef<PasscodeInputRef>(null);
  useEffect(() => {
    if (p.open) setTimeout(() => ref.current?.focus(), 0);
  }, [p.open]);
  return (
    <CenterPopup visible={p.open} onMaskClick={p.onClose} destroyOnClose>
      <div className="passcode-popup" data-testid="withdraw-passcode-popup">
        <div className="passcode-popup-title">{w('withdraw.fundPasswordTitle')}</div>
        <PasscodeInput
          ref={ref}
          className="passcode"
          data-testid="withdraw-passcode"
          length={6}
          plain={false}
          value={p.value}
          onChange={p.setValue}
          onFill={(v) => !p.busy && p.onFill(v)}
          keyboard={<NumberKeyboard className="withdraw-keyboard" />}
        />
      </div>
    </CenterPopup>
  );
}

/** Withdrawal: a bound card, an amount within the rules, then the fund password. */
export default function WithdrawPage() {
  const w = useWalletT();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const info = useUserInfo();
  const channels = useWithdrawChannels();
  const cards = useCards();
  const balances = useBalances();
  const rule = useCreditRule();
  const ch = channels.data?.[0];

  const [v, setV] = useState<WithdrawValues>({ cardId: '', amount: '' });
  const [err, setErr] = useState<FieldError | null>(null);
  const [askPassword, setAskPassword] = useState(false);
  const [code, setCode] = useState('');
  const cardList = cards.data ?? [];
  const cardId = v.cardId || cardList[0]?.id || '';
  const available = ch ? availableIn(balances.data, ch.currency) : '0';
  // The server's figure: what a withdrawal accepts now (unsettled sale proceeds and frozen funds excluded).
  const withdrawable = ch ? withdrawableIn(balances.data, ch.currency) : '0';
  const fundPasswordSet = info.data?.fundPasswordSet ?? false;
  const score = info.data?.creditScore ?? 0;

  const withdraw = useAction((body: BodyOf<'/api/vue/funds/withdrawals'>, key) => api.post('/api/vue/funds/withdrawals', body, { idempotencyKey: key }), {
    onSuccess: () => {
      setAskPassword(false);
      toast.show(w('withdraw.submitted'));
      void qc.invalidateQueries({ queryKey: fundKeys.recordsAll });
      void qc.invalidateQueries({ queryKey: walletKeys.balances });
      void qc.invalidateQueries({ queryKey: queryKeys.userInfo });
      void navigate('/user/FundingDetails?tab=withdraw', { replace: true });
    },
    onError: (e) => {
      setCode('');
      // A wrong password may be typed again; any other refusal is about the form.
      if (!(e instanceof ApiError && e.msg === 'fund_password_wrong')) setAskPassword(false);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ch) return;
    const fe = validateWithdraw(
      { cardId, amount: v.amount },
      { currency: ch.currency, min: ch.min, max: ch.max, open: ch.openNow || ch.window.alwaysOpen, available, withdrawable, creditScore: score, creditThreshold: rule.data?.withdrawThreshold ?? 0, fundPasswordSet },
    );
    setErr(fe);
    if (!fe) {
      setCode('');
      setAskPassword(true);
    }
  };

  const loading = channels.isPending || cards.isPending || info.isPending;
  return (
    <Page title={w('withdraw.title')} testId="withdraw-page">
      {loading ? (
        <ListLoading />
      ) : !ch ? (
        <ListEmpty text={w('withdraw.noChannel')} />
      ) : (
        <>
          <Rules ch={ch} score={score} threshold={rule.data?.withdrawThreshold} />
          {!fundPasswordSet ? (
            <GateNote
              card
              note={w('withdraw.fundPasswordNotSet')}
              to="/user/setPassword"
              link={w('withdraw.setFundPassword')}
              testId="withdraw-no-fund-password"
              linkTestId="withdraw-set-fund-password"
            />
          ) : null}
          <form onSubmit={submit} noValidate data-testid="withdraw-form" className="card">
            <CardPicker
              cards={cardList}
              value={cardId}
              invalid={err?.field === 'cardId'}
              onChange={(id) => {
                setV((p) => ({ ...p, cardId: id }));
                if (err?.field === 'cardId') setErr(null);
              }}
            />
            <TextField
              label={`${w('withdraw.amount')} (${ch.currency})`}
              testId="withdraw-amount"
              value={v.amount}
              onChange={(s) => {
                setV((p) => ({ ...p, amount: s.replace(/[^\d.]/g, '') }));
                if (err?.field === 'amount') setErr(null);
              }}
              placeholder={w('withdraw.amountPlaceholder')}
              inputMode="decimal"
              maxLength={18}
              invalid={err?.field === 'amount'}
            />
            <div className="record-row wallet-available">
              <span className="muted" data-testid="withdraw-available" data-available={withdrawable}>
                {w('withdraw.withdrawable', { amount: `${ch.currency} ${money(withdrawable)}` })}
              </span>
              <button type="button" className="wallet-link-btn" data-testid="withdraw-all" onClick={() => setV((p) => ({ ...p, amount: withdrawAll(withdrawable, ch.max) }))}>
                {w('withdraw.all')}
              </button>
            </div>
            <FormError errorKey={err?.key ?? null} />
            <Button block color="primary" size="large" shape="rounded" type="submit" loading={withdraw.pending} data-testid="withdraw-submit">
              {w('withdraw.submit')}
            </Button>
          </form>
          <FundPasswordPopup
            open={askPassword}
            value={code}
            setValue={setCode}
            busy={withdraw.pending}
            onClose={() => setAskPassword(false)}
            onFill={(fundPassword) => withdraw.run({ amount: v.amount.trim(), cardId, fundPassword })}
          />
        </>
      )}
    </Page>
  );
}
