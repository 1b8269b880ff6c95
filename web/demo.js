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

// The exercise: a challenge whose design the student cannot leave, the explorer hidden (its
// goal and "Faults used: n of b" are shown; its options are checked by the lesson's bundle, so
// a bad one would reject ready(), not throw).
const exercise = mount(byId('widget-exercise'), { challenge: 'redis-2', hide: ['explorer'] });

// The live view of the data stream: every idem:action and result event of every widget on the
// page (they bubble to document, from the tag's element too) and of the iframe (its messages),
// newest first, the last STREAM_ROWS kept.
const STREAM_ROWS = 20;
const STREAM_TYPES = ['idem:action', 'idem:verdict', 'idem:prediction', 'idem:challenge'];
const rows = byId('stream-rows');
const streamRow = (from, type, detail) => {
  const d = detail ?? {};
  const action = d.kind ?? d.verdict ?? d.status ?? d.choice ?? '';
  const cells = [from, type, action, d.scenario ?? d.id ?? '', d.step ?? ''];
  const row = document.createElement('tr');
  row.dataset.type = type;
  row.dataset.from = from;
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = String(text);
    row.append(cell);
  }
  rows.prepend(row);
  while (rows.children.length > STREAM_ROWS) rows.lastElementChild.remove();
};
/** The element a widget was mounted in (or the tag), named by its data-testid or id. */
const widgetOf = (target) => {
  const host = target instanceof Element ? target.closest('.idem-lab')?.parentElement : null;
  return host?.dataset.testid ?? host?.id ?? 'page';
};
for (const type of STREAM_TYPES) {
  document.addEventListener(type, (event) => streamRow(widgetOf(event.target), type, event.detail));
}
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.data?.source !== 'idem-lab') return;
  if (STREAM_TYPES.includes(event.data.type)) streamRow('iframe', event.data.type, event.data.detail);
});

// For tests and the curious: the API and the handles (handle.unmount() removes a widget;
// handle.ready() resolves once its texts are loaded and it is shown).
window.idemLab = { mount, widgets, exercise };
await Promise.all(widgets.map((widget) => widget.ready()));
document.documentElement.dataset.ready = 'true';
