import { Activity, type ReactNode, useRef } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router-dom';
import { handleOf } from './routeHandle';

const MAX_KEPT = 6;

/**
 * An outlet that keeps screens flagged keepAlive (route handle) mounted but hidden while the user
 * is elsewhere, with React's Activity: their state survives, their effects are cleaned up.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const keep = handleOf(leaf?.handle).keepAlive === true;
  const cache = useRef(new Map<string, ReactNode>());

  if (keep && !cache.current.has(pathname)) {
    cache.current.set(pathname, outlet);
    if (cache.current.size > MAX_KEPT) cache.current.delete(cache.current.keys().next().value as string);
  }

  return (
    <>
      {[...cache.current].map(([path, el]) => (
        <Activity key={path} mode={path === pathname ? 'visible' : 'hidden'}>
          {el}
        </Activity>
      ))}
      {keep ? null : outlet}
    </>
  );
}
