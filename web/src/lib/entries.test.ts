import { describe, expect, it } from 'vitest';
import { entriesFor, registerEntries } from './entries';

// Each test file has its own modules: registering here replaces only this file's entries.
describe('entries', () => {
  registerEntries([
    { path: 'a/list', entries: [{ place: 'home', key: 'a', label: { tw: '甲', en: 'A' } }] },
    { path: 'b/queue', entries: [{ place: 'mine', key: 'b', label: { tw: '乙', en: 'B' }, roles: ['ops'] }] },
    { path: 'c/mine', entries: [{ place: 'home', key: 'c', label: { tw: '丙', en: 'C' }, roles: ['member'] }] },
    { path: 'd/none' },
  ]);

  it.each([
    ['home', 'member', 'tw', ['/a/list 甲', '/c/mine 丙']],
    ['home', 'ops', 'en', ['/a/list A']],
    ['home', '', 'en', ['/a/list A']],
    ['mine', 'ops', 'tw', ['/b/queue 乙']],
    ['mine', 'member', 'tw', []],
    ['mine', 'auditor', 'en', []],
  ] as const)('%s for %s in %s', (place, role, lang, want) => {
    expect(entriesFor(place, role, lang).map((e) => `${e.to} ${e.text}`)).toEqual(want);
  });
});
