import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record lines of dividends: the cash (net of the NHI premium and the fee) and the new shares.
declareFundLines({
  dividend: { tw: '現金股利', en: 'Cash dividend' },
  dividend_stock: { tw: '股票股利', en: 'Stock dividend' },
});

export const dividendRoutes: FeatureRoute[] = [
  {
    path: 'common/dividend',
    zone: 'session',
    load: () => import('./DividendCalendarPage'),
    entries: [{ place: 'home', key: 'beneficiaryStocks', label: { tw: '受益股票', en: 'Beneficiary stocks' }, roles: ['member'], icon: 'gift' }],
  },
  { path: 'common/dividendInfo', zone: 'session', load: () => import('./DividendInfoPage') },
  { path: 'common/dividend2', zone: 'session', load: () => import('./HighYieldPage') },
  { path: 'common/dividend3', zone: 'session', load: () => import('./ExRightsPage') },
  { path: 'common/dividendOrder', zone: 'session', load: () => import('./DividendOrderPage') },
];
