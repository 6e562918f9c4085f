import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAction } from '@/lib/action';
import { makeQueryClient } from '@/lib/query';
import { clearSession, reloadSession, saveSession, takeReturn } from '@/lib/session';
import { preloadToast } from '@/lib/toast';
import { antdReady } from './antdReady';
import { apiMock, envelope } from '@/test/render';
import { RequireRole, RequireSession } from './guards';
import { RootShell } from './RootShell';
import { TabsLayout } from './TabsLayout';

let server: ReturnType<typeof apiMock>;
beforeEach(() => {
  server = apiMock();
  vi.stubGlobal('fetch', server.fetch);
});
const userInfo = (role: string) => () => envelope({ account: 'a', role, realNameStatus: 'unverified', inviteCode: '', fundPasswordSet: false, creditScore: 100, flags: [], assets: { total: '0', available: '0', frozen: '0', profit: '0', usd: '0' } });
afterEach(() => {
  vi.unstubAllGlobals();
});
// The shell preloads the kit's locale and the toast at the first input: let those imports finish before
// the environment is torn down, or they fail after the run.
afterAll(async () => {
  await Promise.all([antdReady(), preloadToast()]);
});

function app(initial: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <RootShell />,
        children: [
          { path: 'login/login', element: <div data-testid="login">login</div> },
          {
            element: <RequireSession />,
            children: [
              {
                element: <TabsLayout />,
                children: [
                  { path: 'home/index', element: <div data-testid="home">home</div> },
                  { path: 'user/usercenter', element: <div data-testid="mine">mine</div> },
                ],
              },
              { element: <RequireRole role="ops" />, children: [{ path: 'ops/deposits', element: <div data-testid="ops">ops</div> }] },
            ],
          },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  const client = makeQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('root shell', () => {
  it('removes tklm, zjkm and hklm when it unmounts', () => {
    saveSession({ token: 't', account: 'a' });
    for (const k of ['tklm', 'zjkm', 'hklm']) localStorage.setItem(k, '1');
    const view = app('/home/index');
    expect(localStorage.getItem('tklm')).toBe('1');
    view.unmount();
    expect(['tklm', 'zjkm', 'hklm'].map((k) => localStorage.getItem(k))).toEqual([null, null, null]);
    expect(localStorage.getItem('tokend')).toBe('t');
  });

  it('does not bring the next login back to the screen a member logged out from', () => {
    saveSession({ token: 't', account: 'a' });
    server.on('/api/vue/user/info', userInfo('member'));
    app('/user/usercenter');
    expect(screen.getByTestId('mine')).toBeInTheDocument();
    act(() => clearSession());
    expect(screen.getByTestId('login')).toBeInTheDocument();
    expect(takeReturn('member')).toBeNull();
  });

  it('sends visitors without a session to login', () => {
    app('/home/index');
    expect(screen.getByTestId('login')).toBeInTheDocument();
  });

  it('shows only the tabs that exist, the current one with navActive', () => {
    saveSession({ token: 't', account: 'a' });
    app('/home/index');
    expect(screen.getByTestId('home')).toBeInTheDocument();
    const tabs = screen.getByTestId('tab-bar').querySelectorAll('a');
    expect([...tabs].map((a) => a.getAttribute('data-testid'))).toEqual(['tab-home', 'tab-trade', 'tab-market', 'tab-copyTrade', 'tab-mine', 'tab-news', 'tab-records']);
    expect(screen.getByTestId('tab-home')).toHaveClass('navActive');
    expect(screen.getByTestId('tab-mine')).not.toHaveClass('navActive');
  });

  it('keeps members out of ops screens', async () => {
    saveSession({ token: 't', account: 'a' });
    server.on('/api/vue/user/info', userInfo('member'));
    app('/ops/deposits');
    expect(await screen.findByTestId('home')).toBeInTheDocument();
  });

  it('goes by the role the server reports, not one stored in the browser', async () => {
    saveSession({ token: 't', account: 'a' });
    localStorage.setItem('role', 'ops'); // a member edits storage
    reloadSession();
    server.on('/api/vue/user/info', userInfo('member'));
    app('/ops/deposits');
    expect(await screen.findByTestId('home')).toBeInTheDocument();
    expect(screen.queryByTestId('ops')).toBeNull();
  });

  it('lets ops into their screens once the server says so', async () => {
    saveSession({ token: 't', account: 'ops' });
    server.on('/api/vue/user/info', userInfo('ops'));
    app('/ops/deposits');
    expect(await screen.findByTestId('ops')).toBeInTheDocument();
  });
});

function Counter({ id }: { id: string }) {
  const [n, setN] = useState(0);
  return (
    <button data-testid={id} onClick={() => setN(n + 1)}>
      {n}
    </button>
  );
}

describe('keepAlive routes', () => {
  it('keep their state while the user is elsewhere; others start afresh', async () => {
    saveSession({ token: 't', account: 'a' });
    const router = createMemoryRouter(
      [
        {
          element: <RequireSession />,
          children: [
            { path: '/kept', handle: { keepAlive: true }, element: <Counter id="kept" /> },
            { path: '/plain', element: <Counter id="plain" /> },
            { path: '/other', element: <div data-testid="other" /> },
          ],
        },
      ],
      { initialEntries: ['/kept'] },
    );
    render(<RouterProvider router={router} />);
    fireEvent.click(screen.getByTestId('kept'));
    fireEvent.click(screen.getByTestId('kept'));
    await act(() => router.navigate('/plain'));
    fireEvent.click(screen.getByTestId('plain'));
    expect(screen.getByTestId('plain')).toHaveTextContent('1');
    await act(() => router.navigate('/other'));
    await act(() => router.navigate('/kept'));
    expect(screen.getByTestId('kept')).toHaveTextContent('2');
    expect(screen.getByTestId('kept')).toBeVisible();
    await act(() => router.navigate('/plain'));
    expect(screen.getByTestId('plain')).toHaveTextContent('0');
  });
});

describe('useAction', () => {
  it('makes one idempotency key per press and ignores presses while running', async () => {
    const keys: string[] = [];
    let finish: () => void = () => {};
    const fn = vi.fn((_: number, key: string) => {
      keys.push(key);
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    const client = makeQueryClient();
    const { result } = renderHook(() => useAction(fn), {
      wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    await act(async () => result.current.run(1));
    await act(async () => result.current.run(1));
    expect(fn).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    await act(async () => result.current.run(2));
    await act(async () => finish());
    expect(fn).toHaveBeenCalledTimes(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
