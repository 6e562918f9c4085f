// Search history, kept on the device (the contract leaves it client-side): newest first, no
// duplicates (case-insensitive), at most MAX_HISTORY entries.

export const HISTORY_KEY = 'searchHistory';
export const MAX_HISTORY = 10;

export function loadHistory(storage: Pick<Storage, 'getItem'> = localStorage): string[] {
  try {
    const v: unknown = JSON.parse(storage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').slice(0, MAX_HISTORY) : [];
  } catch {
    return [];
  }
}

/** The history with `term` added in front. */
export function withTerm(history: readonly string[], term: string): string[] {
  const t = term.trim();
  if (!t) return [...history];
  return [t, ...history.filter((h) => h.toLowerCase() !== t.toLowerCase())].slice(0, MAX_HISTORY);
}

export function saveHistory(history: readonly string[], storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage): void {
  try {
    if (history.length === 0) storage.removeItem(HISTORY_KEY);
    else storage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // No storage (private mode): the history lasts for this visit.
  }
}
