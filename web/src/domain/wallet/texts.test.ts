import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { itHasTextsInStep } from '@/test/texts';
import walletEN from './locales/en';
import walletTW from './locales/zh-TW';
import { ensureWalletTexts } from './texts';

describe('wallet texts', () => {
  itHasTextsInStep(walletTW, walletEN);

  it('are added under wallet. in both languages and survive English loading later', async () => {
    ensureWalletTexts();
    expect(i18n.t('wallet.withdraw.title' as 'common.error')).toBe('提領');
    await i18n.changeLanguage('en');
    i18n.addResourceBundle('en', 'translation', { common: { error: 'Error' } }, true, true);
    expect(i18n.t('wallet.withdraw.title' as 'common.error')).toBe('Withdraw');
    await i18n.changeLanguage('zh-TW');
  });
});
