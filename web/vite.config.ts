import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { precompressPlugin } from './scripts/precompress';
import { firstPaintPlugins } from './scripts/firstPaint';
import { serviceWorkerPlugin } from './scripts/serviceWorker';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [react(), ...firstPaintPlugins(), serviceWorkerPlugin(), precompressPlugin()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  // Relative asset URLs: the Go binary serves the build at /, and the hash router needs no base.
  base: './',
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
    // The libraries every screen starts with (React, the router, queries, i18n) in one chunk,
    // not a dozen small shared ones: each request costs a round trip on a phone's connection,
    // and the first route stays under its budget with fewer response headers (issue 14 item 6).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'boot',
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@tanstack[\\/][^\\/]+|i18next|react-i18next|react-router|react-router-dom)[\\/]/,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
});
