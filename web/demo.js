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

// The handle: buttons for restart(), runToEnd() and unmount(), and a log of the last events
// of widget A (from on()) and of the iframe (from its postMessage). The log keeps 8 lines.
const log = byId('event-log');
const note = (from, name, detail) => {
  const line = document.createElement('li');
  line.textContent = `${from} ${name} ${JSON.stringify(detail)}`;
  log.prepend(line);
  while (log.children.length > 8) log.lastElementChild.remove();
};
const [a] = widgets;
for (const name of ['step', 'verdict', 'prediction', 'challenge']) {
  a.on(name, (event) => note('widget-a', event.type, event.detail));
}
byId('a-restart').addEventListener('click', () => a.restart());
byId('a-run-to-end').addEventListener('click', () => a.runToEnd());
byId('a-unmount').addEventListener('click', () => a.unmount());
const frame = document.querySelector('[data-testid=iframe-embed]');
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.data?.source !== 'idem-lab') return;
  // The frame says its height as it changes: size it to its content (no scroll bar, nothing
  // cut off at any width).
  if (event.data.type === 'idem:height') {
    const borders = frame.offsetHeight - frame.clientHeight;
    frame.style.height = `${event.data.detail.height + borders}px`;
    return;
  }
  note('iframe', event.data.type, event.data.detail);
});

// For tests and the curious: the API and the handles (handle.unmount() removes a widget;
// handle.ready() resolves once its texts are loaded and it is shown).
window.idemLab = { mount, widgets };
await Promise.all(widgets.map((widget) => widget.ready()));
document.documentElement.dataset.ready = 'true';
