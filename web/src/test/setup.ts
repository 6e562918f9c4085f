import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import '@/app/router'; // registers the features' entries on home and mine, as the app does
import { renderAntdWithCreateRoot } from '@/lib/antdRender';
import { initI18n, setLanguage } from '@/lib/i18n';
import { reloadSession } from '@/lib/session';
import { preloadToast } from '@/lib/toast';

renderAntdWithCreateRoot();

beforeAll(async () => {
  // Loaded up front: a toast shown as a test ends must not import it after the teardown.
  await Promise.all([initI18n({ search: '', hash: '' }), preloadToast()]);
});

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await setLanguage('tw');
  localStorage.clear();
  reloadSession();
});
