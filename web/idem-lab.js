// <idem-lab>: the lab as one tag (issue 43, item 6), for pages that cannot write a module
// script (Markdown course sites: MkDocs, Docusaurus, Jupyter Book):
//
//   <script type="module" src="/course/lab/idem-lab.js"></script>
//   <idem-lab scenario="key" lang="ru" lock="key,lock"></idem-lab>
//
// The attributes are mount()'s options (docs/embedding.md: scenario, lang, autoplay, theme,
// protections, compact, challenge and the exercise's lock, hide, budget, kinds, stories,
// allow, faults, step); lists are separated by commas, `true`/`false` are flags. A changed
// attribute mounts the widget again with the new options; the idem:* events bubble from
// inside the element as from any widget; removing the element unmounts it. The element's
// `ready`, `getState()`, `setState()`, `freeze()` and `picture()` are the handle's.
//
// Everything is found beside this file (any sub-path): idem-web.js, style.css and later.css.
// No inline script or style: it runs under `script-src 'self' 'wasm-unsafe-eval';
// style-src 'self'`. It is not loaded by index.html (the page needs none of it).

const here = new URL('.', import.meta.url);

/** The attributes read, and how each becomes an option. */
const LISTS = new Set(['protections']);
const FLAGS = new Set(['autoplay', 'compact']);
const NUMBERS = new Set(['budget', 'step']);
const OPTIONS = [
  'scenario', 'lang', 'autoplay', 'theme', 'protections', 'compact', 'challenge',
  'lock', 'hide', 'budget', 'kinds', 'stories', 'allow', 'faults', 'step',
];

let loading = null;

/** The bundle, started once for every tag of the page (after marking the page `manual`, so
 * the bundle mounts no full lesson of its own, and linking style.css if the page has not). */
function bundle() {
  if (loading) return loading;
  if (!document.querySelector('meta[name="idem-lab"]')) {
    const meta = document.createElement('meta');
    meta.name = 'idem-lab';
    meta.content = 'manual';
    document.head.append(meta);
  }
  const sheet = new URL('style.css', here).href;
  if (![...document.styleSheets].some((s) => s.href === sheet)) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = sheet;
    document.head.append(link);
  }
  loading = import(new URL('idem-web.js', here).href).then(async (lab) => {
    await lab.default();
    return lab;
  });
  return loading;
}

/** The options the element's attributes name (an attribute that is not an option is left to
 * mount(), which refuses it by name, as it refuses a misspelt option). */
function options(element) {
  const out = {};
  for (const { name, value } of element.attributes) {
    if (['id', 'class', 'style', 'title', 'hidden'].includes(name) || name.startsWith('data-') || name.startsWith('aria-')) continue;
    if (LISTS.has(name)) out[name] = value.split(',').map((s) => s.trim()).filter(Boolean);
    else if (FLAGS.has(name)) out[name] = value === '' || value === 'true' ? true : value === 'false' ? false : value;
    else if (NUMBERS.has(name) && /^\d+$/.test(value.trim())) out[name] = Number(value);
    else out[name] = value;
  }
  return out;
}

class IdemLab extends HTMLElement {
  static get observedAttributes() {
    return OPTIONS;
  }

  constructor() {
    super();
    this.handle = null;
    this.ready = null;
    this.pending = false;
  }

  connectedCallback() {
    this.remount();
  }

  attributeChangedCallback(_name, before, after) {
    if (before !== after && this.isConnected && this.handle) this.remount();
  }

  disconnectedCallback() {
    // Moved within the page: connectedCallback follows in the same task and mounts again.
    this.handle?.unmount();
    this.handle = null;
  }

  /** Mounts the widget with the attributes' options (once per task, however many changed). */
  remount() {
    if (this.pending) return this.ready;
    this.pending = true;
    this.ready = Promise.resolve()
      .then(bundle)
      .then((lab) => {
        this.pending = false;
        if (!this.isConnected) return false;
        try {
          this.handle = lab.mount(this, options(this));
        } catch (error) {
          // mount() has written the error into the element; the page's console says it too.
          this.handle = null;
          console.error(error.message);
          throw error;
        }
        return this.handle.ready();
      });
    // A rejected `ready` is for those who await it: the element shows the error itself.
    this.ready.catch(() => {});
    return this.ready;
  }

  /** The handle's commands (docs/embedding.md), once the widget is mounted. */
  async command(name, arg) {
    await this.ready;
    if (!this.handle) throw new Error('Idempotency Lab: the widget is not mounted');
    return this.handle[name](arg);
  }

  getState() {
    return this.command('getState');
  }

  setState(state) {
    return this.command('setState', state);
  }

  freeze(on) {
    return this.command('freeze', on);
  }

  picture() {
    return this.command('picture');
  }
}

if (!customElements.get('idem-lab')) customElements.define('idem-lab', IdemLab);
