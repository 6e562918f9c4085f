import { describe, expect, it } from 'vitest';
import { HISTORY_KEY, loadHistory, MAX_HISTORY, saveHistory, withTerm } from './history';

describe('search history', () => {
  it('puts the newest term first, without duplicates (any case) or blanks', () => {
    let h: string[] = [];
    h = withTerm(h, '2330');
    h = withTerm(h, ' 台積電 ');
    h = withTerm(h, 'tsmc');
    h = withTerm(h, 'TSMC');
    h = withTerm(h, '   ');
    expect(h).toEqual(['TSMC', '台積電', '2330']);
  });

  it('keeps at most MAX_HISTORY terms', () => {
    let h: string[] = [];
    for (let i = 0; i < MAX_HISTORY + 5; i++) h = withTerm(h, `t${i}`);
    expect(h).toHaveLength(MAX_HISTORY);
    expect(h[0]).toBe(`t${MAX_HISTORY + 4}`);
  });

  it('round-trips through localStorage and clears it', () => {
    saveHistory(['2330', 'TSMC']);
    expect(localStorage.getItem(HISTORY_KEY)).toBe('["2330","TSMC"]');
    expect(loadHistory()).toEqual(['2330', 'TSMC']);
    saveHistory([]);
    expect(localStorage.getItem(HISTORY_KEY)).toBeNull();
    expect(loadHistory()).toEqual([]);
  });

  it('ignores damaged storage', () => {
    localStorage.setItem(HISTORY_KEY, '{not json');
    expect(loadHistory()).toEqual([]);
    localStorage.setItem(HISTORY_KEY, '{"a":1}');
    expect(loadHistory()).toEqual([]);
    localStorage.setItem(HISTORY_KEY, '["ok", 3, "", null]');
    expect(loadHistory()).toEqual(['ok']);
  });
});
