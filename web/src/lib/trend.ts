import { compareDecimal } from './filters';

/** Taiwan colours: red (up) for gains, green (down) for losses, none for zero. */
export function trendClass(v: unknown): '' | 'up' | 'down' {
  const c = compareDecimal(v, '0');
  return c === 1 ? 'up' : c === -1 ? 'down' : '';
}
