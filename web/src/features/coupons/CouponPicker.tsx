import type { TicketExtraProps } from '@/lib/ticketExtras';
import { money } from '@/lib/filters';
import { useMyCoupons } from './api';
import { applicable } from './rules';
import { useCouponsT } from './texts';
import './coupons.css';

/** The order ticket's coupon choice (declared as a ticket extra in routes.ts): the member's usable fee coupons. */
export default function CouponPicker({ value, onChange }: TicketExtraProps) {
  const ct = useCouponsT();
  const q = useMyCoupons();
  const usable = applicable(q.data ?? []);
  if (usable.length === 0) return null;
  return (
    <label className="ticket-coupon" data-testid="ticket-coupon-row">
      <span>{ct('ticket.label')}</span>
      <select data-testid="ticket-coupon" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{ct('ticket.none')}</option>
        {usable.map((c) => (
          <option key={c.couponId} value={c.couponId}>
            {ct('ticket.option', { value: money(c.value), left: c.left, day: c.expiryDay })}
          </option>
        ))}
      </select>
    </label>
  );
}
