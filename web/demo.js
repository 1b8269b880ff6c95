// The embedding demo: two widgets mounted with the JS API (the page has
// <meta name="idem-lab" content="manual">, so the bundle does not mount the full lesson),
// and a widget given bad options, which shows the error in place. No inline script: CSP-safe.
import init, { mount } from './idem-web.js';

await init();

const byId = (id) => document.getElementById(id);

const widgets = [
  mount(byId('widget-a'), { scenario: 'naive', theme: 'light' }),
  mount(byId('widget-b'), { scenario: 'key', lang: 'ru', protections: ['key', 'lock', 'fingerprint', 'scope'] }),
];

try {
  mount(byId('widget-bad'), { scenario: 'nope' });
} catch (error) {
  byId('widget-bad-thrown').textContent = `mount() threw: ${error.message}`;
}

// For tests and the curious: the API and the handles (handle.unmount() removes a widget;
// handle.ready() resolves once its texts are loaded and it is shown).
window.idemLab = { mount, widgets };
await Promise.all(widgets.map((widget) => widget.ready()));
document.documentElement.dataset.ready = 'true';
