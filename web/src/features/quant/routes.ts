import { declareFundLines } from '@/lib/fundLines';
import type { FeatureRoute } from '@/lib/routes';

// The fund record lines of AI quant: the amount held on subscribing, and each release (for an
// order the strategy places, or on leaving).
declareFundLines({
  quant_hold: { tw: 'AI量化保留', en: 'AI quant hold' },
  quant_release: { tw: 'AI量化釋出', en: 'AI quant release' },
});

export const quantRoutes: FeatureRoute[] = [
  {
    path: 'quant/list',
    zone: 'session',
    load: () => import('./ProductsPage'),
    entries: [{ place: 'home', key: 'aiQuant', label: { tw: 'AI量化', en: 'AI quant' }, roles: ['member'], icon: 'chart' }],
  },
  { path: 'quant/product', zone: 'session', load: () => import('./ProductPage') },
  { path: 'quant/mine', zone: 'session', load: () => import('./MinePage') },
];
