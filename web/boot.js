// Starts the lesson from an external module (Trunk's default is an inline script), so the
// page runs under a strict Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'.
// The wasm file is found next to this script, so dist/ works under any sub-path.
//
// The page's texts are a file per language (i18n/en.txt, i18n/ru.txt). Its request starts here,
// while the wasm downloads, for the language the wasm will pick by the same rule (the `lang`
// parameter, else — unless the page is the `embed` widget — the browser's languages, else
// English); the wasm takes the promise from window.idemLabCatalogs and fetches by itself any
// file not started here.
import init from './idem-web.js';

const TAGS = ['en', 'ru'];
const params = location.search.slice(1).split('&');
const asked = params.find((p) => p.startsWith('lang='))?.slice(5);
const embed = params.some((p) => p === 'embed' || p === 'embed=1' || p === 'embed=true');
const browser = (navigator.languages?.length ? navigator.languages : [navigator.language])
  .map((tag) => String(tag ?? '').split(/[-_]/)[0].toLowerCase())
  .find((tag) => TAGS.includes(tag));
const lang = TAGS.includes(asked) ? asked : (!embed && browser) || 'en';
const text = fetch(new URL(`i18n/${lang}.txt`, import.meta.url)).then((response) =>
  response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`)),
);
text.catch(() => {}); // the wasm reports a failure in the page; no "uncaught" noise here
window.idemLabCatalogs = { [lang]: text };

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
