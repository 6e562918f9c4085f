import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { ensureWalletTexts } from './texts';
import walletEN from './locales/en';
import walletTW from './locales/zh-TW';

function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) for (const [p, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
  } else out.set(prefix, tree);
  return out;
}

describe('wallet texts', () => {
  const tw = leaves(walletTW);
  const en = leaves(walletEN);

  it('have the same keys in both languages', () => {
    expect([...tw.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !tw.has(k))).toEqual([]);
  });

  it('are never empty', () => {
    const blank = (m: Map<string, unknown>) => [...m].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(blank(tw)).toEqual([]);
    expect(blank(en)).toEqual([]);
  });

  it('have no Chinese in English', () => {
    expect([...en].filter(([, v]) => /[\u4e00-\u9fff]/.test(String(v))).map(([k]) => k)).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    const vars = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    expect([...tw].filter(([k, v]) => JSON.stringify(vars(v)) !== JSON.stringify(vars(en.get(k)))).map(([k]) => k)).toEqual([]);
  });

  it('are added under wallet. in both languages and survive English loading later', async () => {
    ensureWalletTexts();
    expect(i18n.t('wallet.withdraw.title' as 'common.error')).toBe('提領');
    await i18n.changeLanguage('en');
    i18n.addResourceBundle('en', 'translation', { common: { error: 'Error' } }, true, true);
    expect(i18n.t('wallet.withdraw.title' as 'common.error')).toBe('Withdraw');
    await i18n.changeLanguage('zh-TW');
  });
});
