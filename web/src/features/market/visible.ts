import { type RefObject, useEffect, useState } from 'react';

/** At most this many rows of one list are live at a time (the server takes 200 per socket). */
export const MAX_LIVE_ROWS = 60;
// Long enough that a scrolling list stays under the socket's request rate (about 5 a second).
const SETTLE_MS = 400;

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The symbols of the rows ([data-symbol]) inside `ref` that are on screen or near it, so that a
 * long list keeps only what the user sees live. Re-reads the rows when `version` changes (a page
 * was added). Without IntersectionObserver every row counts, up to the cap.
 */
export function useVisibleSymbols(ref: RefObject<HTMLElement | null>, version: unknown, max = MAX_LIVE_ROWS): string[] {
  const [symbols, setSymbols] = useState<string[]>([]);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const rows = [...root.querySelectorAll<HTMLElement>('[data-symbol]')];
    const publish = (set: Iterable<string>) => {
      const next = [...new Set(set)].sort().slice(0, max);
      setSymbols((prev) => (same(prev, next) ? prev : next));
    };
    if (typeof IntersectionObserver === 'undefined') {
      publish(rows.map((r) => r.dataset.symbol ?? '').filter(Boolean));
      return;
    }
    const visible = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const s = (e.target as HTMLElement).dataset.symbol;
          if (!s) continue;
          if (e.isIntersecting) visible.add(s);
          else visible.delete(s);
        }
        // Scrolling fires many callbacks: settle before telling the socket.
        timer ??= setTimeout(() => {
          timer = undefined;
          publish(visible);
        }, SETTLE_MS);
      },
      { rootMargin: '200px 0px' },
    );
    rows.forEach((r) => io.observe(r));
    return () => {
      io.disconnect();
      clearTimeout(timer);
    };
  }, [ref, version, max]);
  return symbols;
}
