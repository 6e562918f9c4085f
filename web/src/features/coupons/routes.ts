import { lazy } from 'react';
import { newIdempotencyKey } from '@/lib/api/client';
import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';
import { declareTicketExtra } from '@/lib/ticketExtras';
import { couponsApi } from './api';

// The fund record line of a coupon's commission discount (paid back once its order is done).
declareFundLines({ coupon_discount: { tw: '優惠券折抵', en: 'Coupon discount' } });

// The order ticket offers the member's usable fee coupons; the chosen one is applied to the order
// right after it is placed (the order carries no coupon: the coupons module reserves it against
// the order number on the member's own stream).
declareTicketExtra({
  key: 'coupon',
  Picker: lazy(() => import('./CouponPicker')),
  afterPlace: (orderNo, couponId) => couponsApi.apply(couponId, orderNo, newIdempotencyKey()),
});

const opsLabel = { tw: '優惠券發放', en: 'Coupons' };

export const couponRoutes: FeatureRoute[] = [
  {
    path: 'home/coupons',
    zone: 'session',
    load: () => import('./CouponsPage'),
    entries: [{ place: 'home', key: 'coupons', label: { tw: '簽到領券', en: 'Check-in' }, roles: ['member'], icon: 'gift' }],
  },
  {
    path: 'ops/coupons',
    zone: 'ops',
    load: () => import('./OpsCouponsPage'),
    entries: [
      { place: 'home', key: 'opsCoupons', label: opsLabel, roles: ['ops'], icon: 'gift' },
      { place: 'mine', key: 'ops-coupons', label: opsLabel, roles: ['ops'] },
    ],
  },
];
