import { isNativePlatform } from './native';

/**
 * Registers the service worker (dist/sw.js: the app shell for offline use, never API data) once
 * the page has loaded and gone idle, so the first route's bytes are the page's alone. Not inside
 * the native wrapper (its files are on the device) nor in development.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || isNativePlatform()) return;
  const register = () => {
    void navigator.serviceWorker.register('./sw.js').catch(() => {
      // No worker (private mode, an old browser): the app works online as before.
    });
  };
  const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
