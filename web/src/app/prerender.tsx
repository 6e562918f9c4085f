import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import StartPage from '@/features/auth/StartPage';
import { type AppLang, toI18nCode } from '@/lib/i18n';
import en from '@/lib/i18n/locales/en';
import zhTW from '@/lib/i18n/locales/zh-TW';

/**
 * Build time only (scripts/prerender.ts): the welcome page, the first route, as static markup in
 * one language, so that index.html paints it before any script has loaded (issue 14 item 6, cold
 * start). The app renders the same page over it once its chunks arrive; its own i18n instance
 * keeps the app's untouched.
 */
export async function renderWelcome(lang: AppLang): Promise<string> {
  const lng = toI18nCode(lang);
  const i18n = i18next.createInstance();
  await i18n.init({
    resources: { [lng]: { translation: lang === 'en' ? en : zhTW } },
    lng,
    fallbackLng: false,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/login/start']}>
          <StartPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
