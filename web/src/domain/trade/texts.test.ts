import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/lib/i18n';
import { itHasTextsInStep } from '@/test/texts';
import tradeEN from './locales/en';
import tradeTW from './locales/zh-TW';
import { ensureTradeTexts } from './texts';

describe('trade texts', () => {
  itHasTextsInStep(tradeTW, tradeEN);

  it('are in i18next in both languages once loaded', async () => {
    ensureTradeTexts();
    expect(i18n.t('trade.pos.title' as 'common.error')).toBe('持倉');
    await setLanguage('en');
    expect(i18n.t('trade.pos.title' as 'common.error')).toBe('Positions');
    await setLanguage('tw');
  });
});
