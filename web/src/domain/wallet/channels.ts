import type { TFunction } from 'i18next';

/**
 * The server's names of the demo's channels (ops/seed), by channel id. Deposit records and the
 * ops queue carry only the name, so a name is translated when it is exactly one of these (and,
 * where the id is known, the name of that id); a channel ops named otherwise shows as named.
 */
export const DEMO_CHANNEL_NAMES = { bank: 'Bank transfer' } as const;

type DemoChannel = keyof typeof DEMO_CHANNEL_NAMES;

/** A channel's name in the screen's language: the demo's channels translated, any other as sent. */
export function channelName(t: TFunction, name: string, id?: string): string {
  const known = (Object.keys(DEMO_CHANNEL_NAMES) as DemoChannel[]).find((k) => DEMO_CHANNEL_NAMES[k] === name && (id === undefined || id === k));
  return known ? t(`funds.channelNames.${known}`) : name;
}
