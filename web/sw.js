// Repeat visits and offline (a classroom with bad Wi-Fi): after the first visit every file of
// dist/ is in a cache named after the build, so the next visit starts from the cache and the
// lesson works with the network off. Registered by boot.js on the full page only (never in the
// ?embed iframe, never when a course page mounts the widget with mount()); its scope is the
// folder it is served from, so a site hosting dist/ under /course/lab/ keeps its other pages.
// VERSION and FILES are written at build time by scripts/sw-manifest.sh (a Trunk post_build
// hook): VERSION is a hash of every file in dist/, so any change to the build installs a new
// worker, which caches the new files, takes over at once and deletes the old cache. A debug
// build (trunk serve) keeps FILES empty: nothing is cached, every request goes to the network.
const VERSION = 'dev';
const FILES = [];

const SCOPE = new URL('./', self.location).pathname;
const PREFIX = `idem-lab:${SCOPE}:`;
const CACHE = PREFIX + VERSION;
const KNOWN = new Set(FILES.map((file) => new URL(file, self.location).pathname));

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // `reload`: fetched from the server, never from the HTTP cache of an older build.
      .then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The page's own address, with any query (a deep link), is index.html.
  const path = url.pathname.endsWith('/') ? url.pathname + 'index.html' : url.pathname;
  if (!KNOWN.has(path)) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(path))
      .then((hit) => hit || fetch(request)),
  );
});
