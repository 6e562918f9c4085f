import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** Where back goes when there is no history (spec section 2). */
export const BACK_FALLBACK = '/home/index';

/** True when the data router has history entries before this one. */
export function canGoBack(): boolean {
  const st = window.history.state as { idx?: number } | null;
  return (st?.idx ?? 0) > 0;
}

/** Back one step, or to /home/index when this is the first page of the visit. */
export function useBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (canGoBack()) void navigate(-1);
    else void navigate(BACK_FALLBACK, { replace: true });
  }, [navigate]);
}

/** True when `to` is the page already shown, whose link then reloads (spec section 2). */
export function isCurrentHash(to: string, hash: string = window.location.hash): boolean {
  return `#${to}` === hash;
}

/** Navigates; going to the page already shown reloads it. */
export function useGo(): (to: string, opts?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (to, opts) => {
      if (isCurrentHash(to)) window.location.reload();
      else void navigate(to, opts);
    },
    [navigate],
  );
}
