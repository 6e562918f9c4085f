import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { currentLang, detectLanguage, i18n, LANG_KEY, setLanguage, toI18nCode, translateMessage } from './index';
import en from './locales/en';
import zhTW from './locales/zh-TW';

/** Every leaf of a translation tree as dotted paths (array items by index). */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) {
      for (const [p, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
    }
  } else {
    out.set(prefix, tree);
  }
  return out;
}

describe('translation files', () => {
  const tw = leaves(zhTW);
  const eng = leaves(en);

  it('every key of tw exists in en', () => {
    expect([...tw.keys()].filter((k) => !eng.has(k))).toEqual([]);
  });

  it('every key of en exists in tw', () => {
    expect([...eng.keys()].filter((k) => !tw.has(k))).toEqual([]);
  });

  it('no text is empty except the deliberate blank of the normal pull state', () => {
    const blank = (m: Map<string, unknown>) => [...m].filter(([k, v]) => (typeof v !== 'string' || v.trim() === '') && k !== 'pull.normal').map(([k]) => k);
    expect(blank(tw)).toEqual([]);
    expect(blank(eng)).toEqual([]);
  });

  it('every MessageKey of api/openapi.yaml is translated in both languages', () => {
    const doc = parse(readFileSync(resolve(__dirname, '../../../../api/openapi.yaml'), 'utf8')) as {
      components: { schemas: { MessageKey: { enum: string[] } } };
    };
    const keys = doc.components.schemas.MessageKey.enum;
    expect(keys.length).toBeGreaterThan(50);
    const missing = keys.flatMap((k) => [tw, eng].flatMap((m, i) => (typeof m.get(`msg.${k}`) === 'string' && m.get(`msg.${k}`) !== '' ? [] : [`${i ? 'en' : 'tw'}:${k}`])));
    expect(missing).toEqual([]);
  });

  it('has a weekday name for each day', () => {
    expect(zhTW.weekdays).toHaveLength(7);
    expect(en.weekdays).toHaveLength(7);
  });
});

describe('language selection', () => {
  it.each([
    [{ search: '', hash: '' }, null, 'tw', false],
    [{ search: '', hash: '' }, 'en', 'en', false],
    [{ search: '', hash: '' }, 'tw', 'tw', false],
    [{ search: '', hash: '' }, 'fr', 'tw', false],
    [{ search: '?lang=en', hash: '' }, 'tw', 'en', true],
    [{ search: '?lang=tw', hash: '#/home/index' }, 'en', 'tw', true],
    [{ search: '', hash: '#/login/start?lang=en' }, null, 'en', true],
    [{ search: '', hash: '#/login/start?x=1&lang=tw' }, 'en', 'tw', true],
    [{ search: '?lang=xx', hash: '' }, 'en', 'en', false],
    [{ search: '?lang=en', hash: '#/a?lang=tw' }, null, 'en', true],
  ] as const)('detectLanguage(%j, stored %j) = %s', (loc, stored, lang, fromQuery) => {
    expect(detectLanguage(loc, stored)).toEqual({ lang, fromQuery });
  });

  it('maps tw to zh-TW', () => {
    expect(toI18nCode('tw')).toBe('zh-TW');
    expect(toI18nCode('en')).toBe('en');
  });

  it('setLanguage stores the choice and switches the texts', async () => {
    await setLanguage('en');
    expect(localStorage.getItem(LANG_KEY)).toBe('en');
    expect(currentLang()).toBe('en');
    expect(i18n.t('tabs.mine')).toBe('Mine');
    expect(document.documentElement.lang).toBe('en');
    await setLanguage('tw');
    expect(localStorage.getItem(LANG_KEY)).toBe('tw');
    expect(i18n.t('tabs.mine')).toBe('我的');
  });

  it('translates server message keys; unknown ones read Error / 錯誤', async () => {
    expect(translateMessage('account_exists')).toBe('帳號已存在');
    expect(translateMessage('nope')).toBe('錯誤');
    expect(translateMessage(undefined)).toBe('錯誤');
    await setLanguage('en');
    expect(translateMessage('account_exists')).toBe('The account already exists');
    expect(translateMessage('nope')).toBe('Error');
  });
});
