import { describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/lib/i18n';
import { channelName } from './channels';

describe('channelName', () => {
  it.each([
    ['tw', 'Bank transfer', undefined, '銀行轉帳'],
    ['tw', 'Bank transfer', 'bank', '銀行轉帳'],
    ['en', 'Bank transfer', 'bank', 'Bank transfer'],
    // A channel ops named themselves, or a demo name on another channel id: as the server sent it.
    ['tw', '玉山銀行 ATM', 'esun', '玉山銀行 ATM'],
    ['tw', 'Bank transfer', 'other', 'Bank transfer'],
    ['tw', 'Post office', undefined, 'Post office'],
    ['tw', '', undefined, ''],
  ] as const)('%s: %j (id %j) is %j', async (lang, name, id, want) => {
    await setLanguage(lang);
    expect(channelName(i18n.t, name, id)).toBe(want);
  });
});
