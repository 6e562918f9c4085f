// lotbook's service worker (issue 13 item 7), written by scripts/serviceWorker.ts at build time.
// It keeps the app shell only: index.html, the entry's script and styles, the manifest and icons,
// and afterwards the hashed screen chunks the app fetched. It never answers or stores /api/
// (member data, sessions, files) nor anything from another origin: those go to the network.
const VERSION = __VERSION__;
const SHELL = __SHELL__;
const SHELL_CACHE = `lotbook-shell-${VERSION}`;
const ASSET_CACHE = `lotbook-assets-${VERSION}`;
const INDEX = new URL('./', self.registration.scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((c) => c.addAll(SHELL.map((p) => new URL(p, self.registration.scope).href)))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('lotbook-') && k !== SHELL_CACHE && k !== ASSET_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Only the app's own static files, never the API (nor uploaded files under /api/). */
function isAppFile(url) {
  const scope = new URL(self.registration.scope);
  return url.origin === scope.origin && url.pathname.startsWith(scope.pathname) && !url.pathname.startsWith(`${scope.pathname}api/`) && !url.pathname.startsWith('/api/');
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (!isAppFile(url)) return;
  if (req.mode === 'navigate') {
    // The page: the network first (a new build shows at once), the cached shell when offline.
    event.respondWith(
      fetch(req).catch(() => caches.match(INDEX, { ignoreSearch: true }).then((r) => r ?? Response.error())),
    );
    return;
  }
  if (url.pathname.includes('/assets/')) {
    // Hashed files never change: the cache first, and a fetched chunk is kept for offline use.
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ??
          fetch(req).then((res) => {
            if (res.ok && res.type === 'basic') {
              const copy = res.clone();
              void caches.open(ASSET_CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
    return;
  }
  // The manifest, icons: the network, else the shell's copy.
  event.respondWith(fetch(req).catch(() => caches.match(req, { ignoreSearch: true }).then((r) => r ?? Response.error())));
});
