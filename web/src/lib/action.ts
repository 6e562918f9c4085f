import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { newIdempotencyKey } from './api/client';

/**
 * A user action against the server: each press makes one Idempotency-Key; pressing again while
 * it runs does nothing, and the same key is reused only for the same press.
 */
export function useAction<V, R>(
  fn: (vars: V, idempotencyKey: string) => Promise<R>,
  options: Omit<UseMutationOptions<R, Error, V>, 'mutationFn'> = {},
) {
  const running = useRef(false);
  const m = useMutation<R, Error, V>({
    ...options,
    mutationFn: (vars) => fn(vars, newIdempotencyKey()),
  });
  const { mutate } = m;
  const run = useCallback(
    (vars: V) => {
      if (running.current) return;
      running.current = true;
      mutate(vars, {
        onSettled: () => {
          running.current = false;
        },
      });
    },
    [mutate],
  );
  return { run, pending: m.isPending, error: m.error, data: m.data, reset: m.reset };
}
