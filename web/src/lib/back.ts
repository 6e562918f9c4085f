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
