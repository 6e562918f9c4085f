import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/client';

/** Retries once for network trouble only; a refused request (any HTTP answer) is final. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')) return failureCount < 1;
  return false;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      // Commands are never retried automatically: the user decides, and a retry of the same
      // action reuses its idempotency key (see useAction).
      mutations: { retry: false },
    },
  });
}

export const queryKeys = {
  config: ['config'] as const,
  userInfo: ['user', 'info'] as const,
};
