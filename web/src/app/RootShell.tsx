import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate, useNavigation } from 'react-router-dom';
import { setLoginRedirect } from '@/lib/api/client';
import { useAppConfig } from '@/lib/config';
import { EntryAnnouncers } from '@/lib/entries';
import { canGoBack } from '@/lib/nav';
import { installBackButton } from '@/lib/native';
import { removeTransientKeys } from '@/lib/session';
import { isTabPath } from '@/lib/tabs';
import { preloadToast } from '@/lib/toast';
import { antdReady } from './antdReady';
import { OfflineBanner } from './Offline';

/** The root shell: scroll restoration, the 401 redirect, the back button, the offline banner, config, the entries' announcements. */
export function RootShell() {
  const navigate = useNavigate();
  const navigation = useNavigation();
  useAppConfig();

  useEffect(() => {
    setLoginRedirect(() => void navigate('/login/login', { replace: true }));
    let removeBack: (() => void) | undefined;
    let unmounted = false;
    void installBackButton(() => void navigate(-1), canGoBack).then((remove) => {
      if (unmounted) remove();
      else removeBack = remove;
    });
    // Fetch the toast and the kit's locale at the first touch or key, before they are needed but
    // not at load: a visitor who only looks at the first screen downloads only that screen (the
    // first route's budget on the wire, web/e2e/delivery.e2e.mjs).
    const warm = () => {
      void preloadToast();
      void antdReady();
    };
    const FIRST_INPUT = ['pointerdown', 'touchstart', 'keydown'] as const;
    for (const e of FIRST_INPUT) window.addEventListener(e, warm, { once: true, passive: true, capture: true });
    return () => {
      unmounted = true;
      removeBack?.();
      for (const e of FIRST_INPUT) window.removeEventListener(e, warm, { capture: true });
      // Spec section 3: these keys do not outlive the root shell.
      removeTransientKeys();
    };
  }, [navigate]);

  return (
    <>
      <div className={navigation.state === 'loading' ? 'route-progress active' : 'route-progress'} aria-hidden />
      <OfflineBanner />
      <EntryAnnouncers />
      <Outlet />
      {/* Tab roots keep one scroll position each; other pages restore per history entry. */}
      <ScrollRestoration getKey={(loc) => (isTabPath(loc.pathname) ? loc.pathname : loc.key)} />
    </>
  );
}
