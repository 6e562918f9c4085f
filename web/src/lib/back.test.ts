import { createBackHandler } from './back';

function harness(history: boolean) {
  let t = 0;
  const calls: string[] = [];
  const handle = createBackHandler({
    goBack: () => calls.push('back'),
    canGoBack: () => history,
    exit: () => calls.push('exit'),
    arm: () => calls.push('arm'),
    now: () => t,
  });
  return { handle, calls, at: (ms: number) => (t = ms) };
}

describe('createBackHandler (the hardware back button)', () => {
  it('goes back while there is history, in the app or in the web view', () => {
    const h = harness(true);
    expect(h.handle()).toBe('back');
    const n = harness(false);
    expect(n.handle(true)).toBe('back');
    expect([...h.calls, ...n.calls]).toEqual(['back', 'back']);
  });

  it('warns, then quits on a second press within 1000 ms', () => {
    const h = harness(false);
    h.at(5000);
    expect(h.handle()).toBe('arm');
    h.at(6000);
    expect(h.handle()).toBe('exit');
    expect(h.calls).toEqual(['arm', 'exit']);
  });

  it('warns again after more than 1000 ms, and after a quit', () => {
    const h = harness(false);
    h.at(5000);
    expect(h.handle()).toBe('arm');
    h.at(6001);
    expect(h.handle()).toBe('arm');
    h.at(6500);
    expect(h.handle()).toBe('exit');
    h.at(6600);
    expect(h.handle()).toBe('arm');
    expect(h.calls).toEqual(['arm', 'arm', 'exit', 'arm']);
  });
});
