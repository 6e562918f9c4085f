import type { NewsText } from '@/domain/news/api';

// The server's limits of an item's text (commands/news), checked before sending so that ops see
// the same translated message at once.
export const MAX_TITLE = 120;
export const MAX_BODY = 8000;

/** The message key of the first rule text breaks, or null. Lengths count characters, as the server. */
export function validateNewsText(text: NewsText): string | null {
  const len = (s: string) => Array.from(s).length;
  for (const title of [text.titleTw, text.titleEn]) {
    const t = title.trim();
    if (t === '' || len(t) > MAX_TITLE) return 'news_title_invalid';
  }
  for (const body of [text.bodyTw, text.bodyEn]) {
    if (body.trim() === '' || len(body) > MAX_BODY) return 'news_body_invalid';
  }
  return null;
}

/** A datetime-local value ("YYYY-MM-DDTHH:mm"), read as Taipei time, as an RFC 3339 instant; null when malformed. */
export function taipeiLocalToISO(v: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return null;
  const d = new Date(`${v}:00+08:00`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

/** An instant as a datetime-local value in Taipei time. */
export function isoToTaipeiLocal(iso: string): string {
  const d = new Date(new Date(iso).getTime() + 8 * 3600_000);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 16);
}
