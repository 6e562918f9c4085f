// A cold start's first read (issue 14 item 6): when the address is a screen that declares one
// (FeatureRoute.firstRead), index.html's loader sends that GET beside the app's code
// (scripts/firstPaint.ts) and the client takes its answer once, instead of asking only after the
// code has arrived and the screen has rendered.

/** The window property the loader leaves the early request in. */
export const FIRST_READ_GLOBAL = '__lbFirstRead';

/** An answer older than this is not taken: the screen asks again (the queries' staleTime). */
export const FIRST_READ_MAX_AGE_MS = 10_000;

export interface FirstRead {
  url: string;
  /** performance.now() when the loader sent it */
  at: number;
  res: Promise<Response>;
}

type WithFirstRead = { [FIRST_READ_GLOBAL]?: FirstRead };

/**
 * The early answer to a GET of url, taken once, rejecting when signal aborts (the caller's timeout
 * or cancel, as its own fetch would); undefined when the loader sent none for url or it is too old
 * (the loader's request is then dropped: it is never taken later).
 */
export function takeFirstRead(url: string, signal: AbortSignal, now: number = performance.now()): Promise<Response> | undefined {
  const w = window as unknown as WithFirstRead;
  const early = w[FIRST_READ_GLOBAL];
  if (!early) return undefined;
  const stale = now - early.at > FIRST_READ_MAX_AGE_MS;
  if (early.url !== url && !stale) return undefined;
  delete w[FIRST_READ_GLOBAL];
  if (early.url !== url || stale) return undefined;
  return new Promise((ok, fail) => {
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    early.res.then(ok, fail).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
