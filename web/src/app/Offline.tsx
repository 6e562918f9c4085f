import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's connection state, live (TanStack Query refetches by itself when it returns). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/** A clear, translated offline state over every screen while there is no connection. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" aria-live="polite" data-testid="offline-banner">
      <strong>{t('common.offline')}</strong>
      <span>{t('common.offlineHint')}</span>
    </div>
  );
}

/**
 * The root route's error screen: a screen whose code could not be fetched while offline says so
 * (and reloads itself when the connection returns); anything else is the generic error.
 */
export function RouteError() {
  const { t } = useTranslation();
  const online = useOnline();
  const error = useRouteError();
  const offline = !online || (error instanceof TypeError && /fetch|import/i.test(error.message));
  return (
    <div className="page offline-page" data-testid={offline ? 'offline-page' : 'route-error'}>
      <OfflineBanner />
      <p>{offline ? t('common.offlinePage') : isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : t('common.somethingWrong')}</p>
      <button type="button" className="offline-retry" data-testid="offline-retry" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </button>
    </div>
  );
}
