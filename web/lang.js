// The page's language, chosen before the first paint (a classic script in <head>, so it runs
// before <body> is parsed; external, for the strict CSP): the `lang` parameter, else — unless
// the page is the `embed` widget — the browser's languages, else English; the wasm chooses by
// the same rule (crates/web/src/lang.rs). It
// - shows the first screen of that language (index.html holds one per language, hidden until
//   <html data-shell> names it; never with ?embed, whose widget has no such screen), and
// - starts the request for that language's texts (i18n/en.txt, i18n/ru.txt) while the wasm
//   downloads; the wasm takes the promise from window.idemLabCatalogs and fetches by itself
//   any file not started here.
(() => {
  const TAGS = ['en', 'ru'];
  const params = location.search.slice(1).split('&');
  const asked = params.find((p) => p.startsWith('lang='))?.slice(5);
  const embed = params.some((p) => p === 'embed' || p === 'embed=1' || p === 'embed=true');
  const browser = (navigator.languages?.length ? navigator.languages : [navigator.language])
    .map((tag) => String(tag ?? '').split(/[-_]/)[0].toLowerCase())
    .find((tag) => TAGS.includes(tag));
  const lang = TAGS.includes(asked) ? asked : (!embed && browser) || 'en';
  const root = document.documentElement;
  root.lang = lang;
  if (!embed) root.dataset.shell = lang;
  const here = document.currentScript?.src ?? location.href;
  const text = fetch(new URL(`i18n/${lang}.txt`, here)).then((response) =>
    response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`)),
  );
  text.catch(() => {}); // the wasm reports a failure in the page; no "uncaught" noise here
  window.idemLabCatalogs = { [lang]: text };
  window.idemLabLang = lang;
})();
