import { Badge } from 'antd-mobile';
import type { ReactNode } from 'react';
import type { BadgeHook, Entry } from '@/lib/entries';

/** The count an entry's badge shows: up to 99, then 99+; null when there is nothing to show. */
export function badgeText(n: number | undefined): string | null {
  if (!n || n <= 0) return null;
  return n > 99 ? '99+' : String(n);
}

function Counted({ use, entryKey, children }: { use: BadgeHook; entryKey: string; children?: ReactNode }) {
  const text = badgeText(use());
  const content = text ? (
    <span data-testid={`badge-${entryKey}`} data-text="data">
      {text}
    </span>
  ) : null;
  return <Badge content={content}>{children}</Badge>;
}

/**
 * An entry's badge (Entry.badge) around children, or on its own without them; the entry's
 * feature says the count, so the shared screen never names it.
 */
export function EntryBadge({ entry, children }: { entry: Pick<Entry, 'key' | 'badge'>; children?: ReactNode }) {
  if (!entry.badge) return <>{children}</>;
  return (
    <Counted use={entry.badge} entryKey={entry.key}>
      {children}
    </Counted>
  );
}
