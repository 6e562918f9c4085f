import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { makeQueryClient } from '@/lib/query';

/** Renders one screen at `path` in a memory router; other paths render their own name. */
export function renderPage(path: string, Page: ComponentType, opts: { url?: string; others?: string[] } = {}) {
  const others = opts.others ?? ['/home/index', '/login/login', '/user/FundingDetails', '/ops/deposits', '/ops/console', '/audit/timeline'];
  const router = createMemoryRouter(
    [{ path, element: <Page /> }, ...others.filter((p) => p !== path).map((p) => ({ path: p, element: <div data-testid="landed">{p}</div> }))],
    { initialEntries: [opts.url ?? path] },
  );
  const client = makeQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, client };
}

export function envelope(data: unknown, status = 1, msg = 'ok', http = 200): Response {
  return new Response(JSON.stringify({ status, msg, data }), { status: http, headers: { 'Content-Type': 'application/json' } });
}

type Call = { url: string; init: RequestInit & { headers: Record<string, string> } };

/**
 * A fake server for fetch: the config call answers an empty list unless a test sets it with `on`; other calls take the
 * next queued answer, or a `by` answer matched on the URL's start.
 */
export function apiMock() {
  const queue: Response[] = [];
  const by: Array<[string, () => Response]> = [];
  const calls: Call[] = [];
  const fetch = (url: string, init: Call['init']) => {
    if (url.endsWith('/common/config')) {
      const config = by.find(([prefix]) => prefix.endsWith('/common/config') && url.startsWith(prefix));
      return Promise.resolve(config ? config[1]() : envelope([]));
    }
    calls.push({ url, init });
    const hit = by.find(([prefix]) => url.startsWith(prefix));
    if (hit) return Promise.resolve(hit[1]());
    const next = queue.shift();
    return next ? Promise.resolve(next) : Promise.reject(new TypeError(`no answer queued for ${url}`));
  };
  return {
    fetch,
    calls,
    reply: (r: Response) => queue.push(r),
    on: (prefix: string, make: () => Response) => by.push([prefix, make]),
  };
}
