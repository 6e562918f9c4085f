import { expect, it } from 'vitest';

/** The texts of a translation tree by dotted key ('withdraw.title' → '提領'). */
export function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree !== null && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) for (const [p, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, leaf);
  } else out.set(prefix, tree);
  return out;
}

/** The checks every domain's texts pass (call inside a describe): the two languages in step. */
export function itHasTextsInStep(twTree: unknown, enTree: unknown): void {
  const tw = leaves(twTree);
  const en = leaves(enTree);
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
  it('use the same placeholders in both languages', () => {
    const vars = (s: unknown) => [...String(s).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    expect([...tw].filter(([k, v]) => JSON.stringify(vars(v)) !== JSON.stringify(vars(en.get(k)))).map(([k]) => k)).toEqual([]);
  });
}
