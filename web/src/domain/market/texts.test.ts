import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/lib/i18n';
import { itHasTextsInStep } from '@/test/texts';
import marketEN from './locales/en';
import marketTW from './locales/zh-TW';
import { ensureMarketTexts } from './texts';

describe('market texts', () => {
  itHasTextsInStep(marketTW, marketEN);

  it('are in i18next in both languages once loaded', async () => {
    ensureMarketTexts();
    expect(i18n.t('market.tabs.gainers')).toBe('漲幅榜');
    await setLanguage('en');
    expect(i18n.t('market.tabs.gainers')).toBe('Gainers');
    expect(i18n.t('tabs.market')).toBe('Market');
  });
});
