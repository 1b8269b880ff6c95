// Starts the lesson from an external module (Trunk's default is an inline script), so the
// page runs under a strict Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'.
// The wasm file is found next to this script, so dist/ works under any sub-path.
//
// web/lang.js (a classic script in <head>) has already chosen the language, shown that
// language's first screen (the static #idem-shell-<lang> of index.html: title, definition and
// a "Loading the lesson…" status; the wasm replaces it when it mounts) and started the
// request for that language's texts. If the wasm cannot be loaded or started, the first
// screen says so instead of loading for ever.
// The wasm is compiled (while it streams in) once the first screen's paint has been presented
// and recorded, so that paint stays the page's largest even when the wasm arrives at once (a
// paint whose text is replaced before the browser has recorded it is forgotten). No first
// screen (?embed), no paint to wait for; a hidden tab paints nothing, hence the time limit.
const painted = new Promise((resolve) => {
  const seen = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (!document.documentElement.dataset.shell || seen()) return resolve();
  try {
    new PerformanceObserver((_, observer) => {
      if (seen()) {
        observer.disconnect();
        resolve();
      }
    }).observe({ type: 'paint' });
  } catch {
    resolve(); // no paint timing in this browser
  }
  setTimeout(resolve, 1000);
});

// The wasm's download starts at once, at a low priority: the browser serves the first
// screen's own files first (index.html, css, lang.js, the catalog), and the link is never
// idle while the screen paints. Its compilation (streamed from the response) waits for that
// paint, as above. (A dynamic import, so that a failure to load idem-web.js is reported too.)
const wasm = fetch(new URL('./idem-web_bg.wasm', import.meta.url), { priority: 'low' });
wasm.catch(() => {}); // reported by the start below, which awaits it
const started = Promise.all([import('./idem-web.js'), painted]).then(([bindings]) =>
  bindings.default({ module_or_path: wasm }),
);
started.catch((error) => {
  const shell = document.getElementById(`idem-shell-${window.idemLabLang ?? 'en'}`);
  const failed = shell?.querySelector('[data-testid="shell-failed"]');
  if (!failed) return;
  shell.querySelector('[data-testid="shell-status"]')?.remove();
  shell.dataset.failed = 'true';
  const reload = failed.querySelector('a');
  // The same address without its fragment: following it loads the page again.
  if (reload) reload.href = location.href.split('#')[0];
  const reason = failed.querySelector('code');
  if (reason) reason.textContent = String(error?.message ?? error);
  failed.hidden = false;
});

// Offline and repeat visits (web/sw.js): the full page only, never in a frame or with ?embed.
const embedded = window.self !== window.top || /(^|[?&])embed(=1|=true)?(&|$)/.test(location.search.slice(1));
if (!('serviceWorker' in navigator) || embedded) {
  document.documentElement.dataset.sw = 'off';
} else {
  // Once the whole lesson is drawn (`data-ready`, with its later wasm parts) and the page has
  // loaded, so that the worker's download of every file never competes with the first visit's
  // own (10 s at most); a failure leaves the page as it was.
  const register = () =>
    navigator.serviceWorker.register(new URL('./sw.js', import.meta.url), { scope: './' }).catch(() => {});
  const drawn = () =>
    new Promise((resolve) => {
      const done = () => document.querySelector('.idem-lab[data-ready="true"]');
      if (done()) return resolve();
      const observer = new MutationObserver(() => {
        if (done()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-ready'], childList: true });
      setTimeout(() => {
        observer.disconnect();
        resolve();
      }, 10000);
    });
  started.then(drawn).then(() => {
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }, () => {});
}
