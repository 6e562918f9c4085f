import { i18n, translateMessage } from './i18n';

/** Spec section 9: server messages show 2 s, the generic something-went-wrong toast 3 s. */
export const MESSAGE_TOAST_MS = 2000;
export const GENERIC_TOAST_MS = 3000;

type ToastModule = typeof import('antd-mobile/es/components/toast');
let toastModule: Promise<ToastModule> | undefined;
/** antd-mobile's Toast (with its animation library) stays out of the first route's bundle. */
export function preloadToast(): Promise<ToastModule> {
  toastModule ??= import('antd-mobile/es/components/toast');
  return toastModule;
}

// One object so that tests can watch what the app would show.
export const toast = {
  show(content: string, duration: number = MESSAGE_TOAST_MS): void {
    void preloadToast().then((m) => m.default.show({ content, duration }));
  },
};

/** Shows a server (or client-side validation) message key, translated. */
export function toastMessage(key: string | null | undefined): void {
  toast.show(translateMessage(key), MESSAGE_TOAST_MS);
}

export function toastGeneric(): void {
  toast.show(i18n.t('common.somethingWrong'), GENERIC_TOAST_MS);
}
