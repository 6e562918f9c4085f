import type { CapacitorConfig } from '@capacitor/cli';

// The native wrapper (issue 13 item 7): the Android app is this same web build (dist/), loaded
// from the app's own files; the API is the server the build talks to (same origin in the browser,
// `server.url` below when the wrapper should load a deployed site instead).
// LOTBOOK_SERVER_URL (e.g. https://app.example.tw) at `npm run cap:sync` makes the wrapper load
// the deployed site, whose /api/vue/ is then the same origin; without it the wrapper serves dist/
// from the device and needs the server's API behind the same origin (development on an emulator:
// `lotbook serve` on the host and LOTBOOK_SERVER_URL=http://10.0.2.2:8080 with cleartext allowed).
const serverUrl = process.env.LOTBOOK_SERVER_URL;

const config: CapacitorConfig = {
  appId: 'tw.lotbook.app',
  appName: 'lotbook',
  webDir: 'dist',
  ...(serverUrl ? { server: { url: serverUrl, cleartext: serverUrl.startsWith('http://') } } : {}),
  android: {
    // The hash router needs no path rewriting; mixed content stays off.
    allowMixedContent: false,
  },
};

export default config;
