// Starts the lesson from an external module, so the page runs under a strict CSP
// (script-src 'self' 'wasm-unsafe-eval'); files are found next to this one (any sub-path).
import init from './idem-web.js';

init();

// Offline and repeat visits (web/sw.js): the full page only, never in a frame or with ?embed.
const embedded = window.self !== window.top || /(^|[?&])embed(=1|=true)?(&|$)/.test(location.search.slice(1));
if (!('serviceWorker' in navigator) || embedded) {
  document.documentElement.dataset.sw = 'off';
} else {
  // After load, so it never delays the first screen; a failure leaves the page as it was.
  const register = () =>
    navigator.serviceWorker.register(new URL('./sw.js', import.meta.url), { scope: './' }).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
