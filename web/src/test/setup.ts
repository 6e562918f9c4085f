import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import '@/app/router'; // registers the features' entries on home and mine, as the app does
import { initI18n, setLanguage } from '@/lib/i18n';
import { reloadSession } from '@/lib/session';

beforeAll(async () => {
  await initI18n({ search: '', hash: '' });
});

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await setLanguage('tw');
  localStorage.clear();
  reloadSession();
});
