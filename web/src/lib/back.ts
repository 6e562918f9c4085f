/** Spec section 9: a second back press within this window quits the native app. */
export const DOUBLE_BACK_MS = 1000;

export type BackAction = 'back' | 'exit' | 'arm';

/**
 * The hardware back button rule: go back in the web view when it can; otherwise the first press
 * arms (and tells the user), a second press within 1000 ms quits.
 */
export function backAction(canGoBack: boolean, now: number, lastPress: number | null): BackAction {
  if (canGoBack) return 'back';
  if (lastPress !== null && now - lastPress <= DOUBLE_BACK_MS) return 'exit';
  return 'arm';
}

export interface BackDeps {
  /** Back one step in the web view's history. */
  goBack: () => void;
  /** Whether the app's own history has an entry before this one. */
  canGoBack: () => boolean;
  /** Quits the app (the native wrapper's exitApp). */
  exit: () => void;
  /** Tells the user that a second press quits (the translated toast). */
  arm: () => void;
  now?: () => number;
}

/**
 * The hardware back button's handler: one per app, remembering the last arming press. Called
 * with the web view's own "can go back" (Capacitor's backButton event); the app's history counts
 * too. The native wrapper and the browser build's test hook use this same handler.
 */
export function createBackHandler(d: BackDeps): (webViewCanGoBack?: boolean) => BackAction {
  let last: number | null = null;
  return (webViewCanGoBack = false) => {
    const now = (d.now ?? Date.now)();
    const action = backAction(webViewCanGoBack || d.canGoBack(), now, last);
    if (action === 'back') {
      last = null;
      d.goBack();
    } else if (action === 'exit') {
      last = null;
      d.exit();
    } else {
      last = now;
      d.arm();
    }
    return action;
  };
}
