import { createBackHandler, DOUBLE_BACK_MS } from './back';
import { i18n } from './i18n';
import { toast } from './toast';

type CapacitorGlobal = { Capacitor?: { isNativePlatform?: () => boolean } };

/** True inside the native wrapper (Capacitor injects its bridge before the app's script). */
export function isNativePlatform(): boolean {
  return Boolean((window as unknown as CapacitorGlobal).Capacitor?.isNativePlatform?.());
}

/** localStorage key that turns on the browser build's back-button test hook. */
export const BACK_TEST_HOOK_FLAG = 'lotbookTestHooks';

/** The hook browser tests drive (window.__lotbookBack), present only when the flag is set. */
export interface BackTestHook {
  /** A hardware back press; answers what the handler did. */
  press: () => string;
  /** How many times the app would have quit. */
  exits: number;
}

function backTestHookEnabled(): boolean {
  try {
    return window.localStorage.getItem(BACK_TEST_HOOK_FLAG) === '1';
  } catch {
    return false;
  }
}

/**
 * Wires the hardware back button: inside the native wrapper to Capacitor's App plugin (loaded
 * only there, so the browser build's first route does not carry it); in the browser build only
 * when a test sets the flag, to window.__lotbookBack with the same handler, where quitting counts
 * `exits` and dispatches `lotbook:exit`. Answers a function that removes the wiring.
 */
export async function installBackButton(goBack: () => void, canGoBack: () => boolean): Promise<() => void> {
  const arm = () => toast.show(i18n.t('common.pressAgainToExit'), DOUBLE_BACK_MS);
  if (isNativePlatform()) {
    const { App } = await import('@capacitor/app');
    const handle = createBackHandler({ goBack, canGoBack, arm, exit: () => void App.exitApp() });
    const sub = await App.addListener('backButton', (ev) => void handle(ev.canGoBack));
    return () => void sub.remove();
  }
  if (!backTestHookEnabled()) return () => {};
  const w = window as unknown as { __lotbookBack?: BackTestHook };
  const hook: BackTestHook = {
    exits: 0,
    press: () => handle(false),
  };
  const handle = createBackHandler({
    goBack,
    canGoBack,
    arm,
    exit: () => {
      hook.exits += 1;
      window.dispatchEvent(new Event('lotbook:exit'));
    },
  });
  w.__lotbookBack = hook;
  return () => {
    if (w.__lotbookBack === hook) delete w.__lotbookBack;
  };
}
