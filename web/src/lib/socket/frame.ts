/** Schedules a callback for the next frame; returns nothing (one pending flush at a time). */
export type FrameScheduler = (cb: () => void) => void;

/** requestAnimationFrame where there is one (browsers), else a ~60 Hz timer (tests, workers). */
export const nextFrame: FrameScheduler = (cb) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => cb());
  else setTimeout(cb, 16);
};

/**
 * Coalesces pushes by key and hands them over at most once per frame, latest value per key:
 * a burst of quotes for one symbol costs one cache write and one render, and a backlog (hidden
 * tab, paused frames) stays bounded by the number of keys.
 */
export function frameBatcher<K, V>(flush: (batch: Map<K, V>) => void, schedule: FrameScheduler = nextFrame) {
  let pending = new Map<K, V>();
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    if (batch.size > 0) flush(batch);
  };
  return {
    push(key: K, value: V): void {
      pending.set(key, value);
      if (!scheduled) {
        scheduled = true;
        schedule(run);
      }
    },
    /** Number of keys waiting for the next frame. */
    get size(): number {
      return pending.size;
    },
  };
}
