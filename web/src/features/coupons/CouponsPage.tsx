import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { ListEmpty, ListLoading } from '@/components/ListState';
import { Page } from '@/components/Page';
import { useAction } from '@/lib/action';
import { money } from '@/lib/filters';
import { toast } from '@/lib/toast';
import { useTranslation } from 'react-i18next';
import { type Coupon, couponKeys, couponsApi, useCheckIn, useMyCoupons } from './api';
import { cycleDone } from './rules';
import { useCouponsT } from './texts';
import './coupons.css';

function CouponCard({ c }: { c: Coupon }) {
  const ct = useCouponsT();
  return (
    <div className="record coupon" data-testid="coupon-item" data-coupon-id={c.couponId} data-status={c.status}>
      <div className="record-row">
        <span className="record-amount coupon-value" data-testid="coupon-value">
          {ct('value', { value: money(c.value) })}
        </span>
        <span className={`badge badge-coupon-${c.status}`} data-testid="coupon-status">
          {ct(`status.${c.status}`)}
        </span>
      </div>
      <div className="record-row muted">
        <span>{ct(c.source === 'ops' ? 'source.ops' : 'source.checkin')}</span>
        <span className="num" data-testid="coupon-left">
          {ct('left', { left: c.left, uses: c.uses })}
        </span>
      </div>
      <div className="record-row muted">
        <span className="num">{ct('expiry', { day: c.expiryDay })}</span>
        {c.discount !== '0.00' ? <span className="num">{ct('discount', { amount: money(c.discount) })}</span> : null}
      </div>
      {c.reason ? <div className="muted coupon-reason">{c.reason}</div> : null}
    </div>
  );
}

/** /home/coupons: the daily check-in with its streak and published reward table, and the member's coupons. */
export default function CouponsPage() {
  const ct = useCouponsT();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const state = useCheckIn();
  const mine = useMyCoupons();
  const checkIn = useAction((_: void, key) => couponsApi.checkIn(key), {
    onSuccess: () => toast.show(t('msg.checkin_success')),
    // Done or refused (checkin_done from another device), the state has changed.
    onSettled: () => void qc.invalidateQueries({ queryKey: couponKeys.all }),
  });
  const s = state.data;
  const done = s ? cycleDone(s.streak, s.checkedInToday) : 0;
  const items = mine.data ?? [];
  return (
    <Page title={ct('title')} testId="checkin-page">
      <div className="card checkin-card">
        {s ? (
          <>
            <div className="muted" data-testid="checkin-today">
              {ct('today', { day: s.today })}
            </div>
            <div className="checkin-streak">
              <span className="muted">{ct('streak')}</span>
              <strong className="num" data-testid="checkin-streak" data-streak={s.streak}>
                {ct('streakDays', { n: s.streak })}
              </strong>
            </div>
            <ol className="checkin-cycle" data-testid="checkin-table">
              {s.table.map((r) => (
                <li key={r.cycleDay} className={r.cycleDay <= done ? 'done' : r.cycleDay === s.nextCycleDay && !s.checkedInToday ? 'next' : ''}
                  data-testid="checkin-day" data-done={r.cycleDay <= done ? '1' : '0'}>
                  <span>{ct('tableDay', { n: r.cycleDay })}</span>
                  <strong className="num">{money(r.value)}</strong>
                  <span className="muted">{ct('tableValid', { days: r.validDays })}</span>
                </li>
              ))}
            </ol>
            <div className="muted">{ct('total', { n: s.total })}</div>
          </>
        ) : (
          <ListLoading />
        )}
        <Button block color="primary" shape="rounded" disabled={!s || s.checkedInToday} loading={checkIn.pending} data-testid="checkin-button"
          onClick={() => checkIn.run()}>
          {s?.checkedInToday ? ct('checkedIn') : ct('checkIn')}
        </Button>
      </div>
      <div className="card" data-testid="checkin-rules">
        <div className="section-title">{ct('rulesTitle')}</div>
        <ul className="checkin-rules">
          {(['r1', 'r2', 'r3', 'r4', 'r5'] as const).map((k) => (
            <li key={k}>{ct(`rules.${k}`)}</li>
          ))}
        </ul>
      </div>
      <div className="section-title">{ct('mine')}</div>
      <div className="record-list" data-testid="coupon-list">
        {mine.isPending ? <ListLoading /> : items.length === 0 ? <ListEmpty text={ct('empty')} /> : items.map((c) => <CouponCard key={c.couponId} c={c} />)}
      </div>
    </Page>
  );
}
