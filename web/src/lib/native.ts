import { backAction } from './back';
import { i18n } from './i18n';
import { toast } from './toast';

/**
 * Inside the native wrapper (Capacitor), wires the hardware back button. Capacitor is loaded
 * only there, so the browser build's first route does not carry it.
 */
export async function installNativeBackButton(goBack: () => void, canGoBack: () => boolean): Promise<void> {
  const w = window as unknown as { Capacitor?: { isNativePlatform?: () => boolean } };
  if (!w.Capacitor?.isNativePlatform?.()) return;
  const { App } = await import('@capacitor/app');
  let last: number | null = null;
  await App.addListener('backButton', (ev) => {
    const now = Date.now();
    const action = backAction(ev.canGoBack || canGoBack(), now, last);
    if (action === 'back') {
      last = null;
      goBack();
    } else if (action === 'exit') {
      void App.exitApp();
    } else {
      last = now;
      toast.show(i18n.t('common.pressAgainToExit'), 1000);
    }
  });
}
