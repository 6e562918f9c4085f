import { describe, expect, it } from 'vitest';
import { frameBatcher } from './frame';

function manualFrames() {
  const queue: Array<() => void> = [];
  return {
    schedule: (cb: () => void) => void queue.push(cb),
    pending: () => queue.length,
    run: () => queue.splice(0).forEach((cb) => cb()),
  };
}

describe('frameBatcher', () => {
  it('hands over the latest value per key once per frame', () => {
    const frames = manualFrames();
    const flushed: Array<Map<string, number>> = [];
    const b = frameBatcher<string, number>((m) => flushed.push(m), frames.schedule);
    b.push('2330', 1);
    b.push('2330', 2);
    b.push('2317', 7);
    b.push('2330', 3);
    expect(frames.pending()).toBe(1);
    expect(b.size).toBe(2);
    frames.run();
    expect(flushed).toEqual([
      new Map([
        ['2330', 3],
        ['2317', 7],
      ]),
    ]);
    expect(b.size).toBe(0);
  });

  it('schedules the next frame only when something new arrives', () => {
    const frames = manualFrames();
    let calls = 0;
    const b = frameBatcher<string, number>(() => calls++, frames.schedule);
    frames.run();
    expect(calls).toBe(0);
    b.push('a', 1);
    frames.run();
    b.push('a', 2);
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(calls).toBe(2);
  });

  it('keeps a backlog bounded by the number of keys while frames do not run', () => {
    const frames = manualFrames();
    const b = frameBatcher<string, number>(() => {}, frames.schedule);
    for (let i = 0; i < 10_000; i++) b.push(String(i % 50), i);
    expect(b.size).toBe(50);
    expect(frames.pending()).toBe(1);
  });
});
