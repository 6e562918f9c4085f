import { Dialog } from 'antd-mobile';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetClientState } from '@/lib/api/client';
import { saveSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { apiMock } from './render';

/**
 * Sets every test of a screen file up alike: a fresh client, the session of `account` (none
 * without one), a fake server on fetch, object URLs stubbed where the screen shows files, and the
 * toasts it shows collected; with `confirm`, the kit's imperative dialog is answered yes and what it
 * asked is kept in `asked`. The returned fields are replaced before each test.
 */
export function useScreenTest(opts: { account?: string; objectUrls?: boolean; confirm?: boolean } = {}) {
  const t = { server: apiMock(), shown: [] as string[], asked: undefined as Parameters<typeof Dialog.confirm>[0] | undefined };
  beforeEach(() => {
    resetClientState();
    if (opts.account) saveSession({ token: 'tok', account: opts.account });
    t.server = apiMock();
    vi.stubGlobal('fetch', t.server.fetch);
    if (opts.objectUrls) vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    t.shown = [];
    vi.spyOn(toast, 'show').mockImplementation((text: string) => {
      t.shown.push(text);
    });
    t.asked = undefined;
    if (opts.confirm)
      vi.spyOn(Dialog, 'confirm').mockImplementation((p) => {
        t.asked = p;
        return Promise.resolve(true);
      });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return t;
}
