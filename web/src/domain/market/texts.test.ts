import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/lib/i18n';
import marketEN from './locales/en';
import marketTW from './locales/zh-TW';
import { ensureMarketTexts } from './texts';

function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) for (const [p, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
  } else out.set(prefix, tree);
  return out;
}

describe('market texts', () => {
  const tw = leaves(marketTW);
  const en = leaves(marketEN);

  it('have the same keys in tw and en, none empty', () => {
    expect([...tw.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !tw.has(k))).toEqual([]);
    const blank = (m: Map<string, unknown>) => [...m].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(blank(tw)).toEqual([]);
    expect(blank(en)).toEqual([]);
  });

  it('have English free of Chinese (instrument names are data, not texts)', () => {
    expect([...en].filter(([, v]) => /[\u4e00-\u9fff]/.test(String(v))).map(([k]) => k)).toEqual([]);
  });

  it('are in i18next in both languages once loaded', async () => {
    ensureMarketTexts();
    expect(i18n.t('market.tabs.gainers')).toBe('漲幅榜');
    await setLanguage('en');
    expect(i18n.t('market.tabs.gainers')).toBe('Gainers');
    expect(i18n.t('tabs.market')).toBe('Market');
  });
});
