// Not a test: prints every long task (> 50 ms) of the page's load in headless Chromium at 4x
// CPU slowdown (Lighthouse's mobile factor, set through the DevTools protocol), from the
// request of the page until it has been ready (`data-ready`) for a second: when it started (ms
// after the page was requested), its wall time and its thread CPU time (on a loaded machine
// the wall time includes waiting for a CPU; the CPU time is the page's own work), what ran in
// it (the trace's top-level events over 5 ms) and, with PROFILE=1, the wasm/JS functions that
// took most of it (V8's sampling profiler; the release wasm has no names, so build a copy of
// dist/ with them first: see below). Also the total blocking time (sum of wall - 50 ms over the
// long tasks after the first paint, as Lighthouse counts it) in wall and in CPU time, and with
// THROTTLE=1 the blocking time Lighthouse's simulation would count from the tasks' CPU times.
//
// node tests/e2e/measure-load.mjs [rounds] [query]      (after a release build in dist/)
// DIST=<folder> measures another build. Function names: copy dist/ and put the wasm that
// wasm-bindgen wrote before wasm-opt in it ($CARGO_TARGET_DIR/wasm-bindgen/release/
// idem-web_bg.wasm, same bindings), then DIST=<copy> PROFILE=1 node tests/e2e/measure-load.mjs.
import { join } from 'node:path';
import { ROOT, launchChromium } from './harness.mjs';
import { serve } from './server.mjs';

const rounds = Number(process.argv[2] ?? 3);
const query = process.argv[3] ?? '';
const profile = process.env.PROFILE === '1';
// THROTTLE=1 measures without the slowdown (the profiler's samples are cleaner without it).
const SLOWDOWN = Number(process.env.THROTTLE ?? 4);
// LONG=<ms> lists the tasks over that wall time instead of 50 ms (e.g. LONG=12 with THROTTLE=1:
// Lighthouse's simulation multiplies each task of an unthrottled load by 4).
const LONG = Number(process.env.LONG ?? 50);
// Lighthouse's mobile screen (Moto G Power).
const VIEWPORT = { width: 412, height: 823 };

const ms = (us) => us / 1000;

/** What the trace says about the load: long tasks with their contents, and paints. */
function analyse(trace) {
  const events = JSON.parse(trace.toString()).traceEvents;
  // The main thread of the renderer that parsed the lesson's page (the browser has others).
  const ours = new Set(
    events
      .filter((e) => e.name === 'ParseHTML' && /\/course\/lab\//.test(e.args?.beginData?.url ?? ''))
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`)
      .filter((thread) => ours.has(thread)),
  );
  const onMain = (e) => main.has(`${e.pid}:${e.tid}`);
  const request = events.find((e) => e.name === 'ResourceSendRequest' && /\/course\/lab\/(\?|$)/.test(e.args?.data?.url ?? ''));
  const t0 = request?.ts ?? Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && onMain(e));
  const complete = events.filter((e) => e.ph === 'X' && onMain(e) && e.dur !== undefined);
  const tasks = complete.filter((e) => e.name === 'RunTask' && e.ts >= t0);
  const long = tasks.filter((e) => e.dur > LONG * 1000);
  const inside = complete.filter((e) => e.name !== 'RunTask' && e.dur > 5_000);
  // Samples of the V8 profiler (in the trace as ProfileChunk events), for PROFILE=1.
  const nodes = new Map();
  const samples = [];
  // Only the main thread's profile: its sample times count from the Profile event's start.
  const clock = new Map(
    events.filter((e) => e.name === 'Profile' && onMain(e)).map((e) => [`${e.pid}:${e.id}`, e.args.data.startTime]),
  );
  for (const e of events.filter((e) => e.name === 'ProfileChunk')) {
    const data = e.args?.data?.cpuProfile;
    const key = `${e.pid}:${e.id}`;
    if (!data || !clock.has(key)) continue;
    for (const n of data.nodes ?? []) nodes.set(n.id, n);
    let ts = clock.get(key);
    const deltas = e.args.data.timeDeltas ?? [];
    (data.samples ?? []).forEach((id, i) => {
      ts += deltas[i] ?? 0;
      samples.push([ts, id]);
    });
    clock.set(key, ts);
  }
  samples.sort((a, b) => a[0] - b[0]);
  const nameOf = (id) => {
    const f = nodes.get(id)?.callFrame;
    return f ? f.functionName || `(${f.url?.split('/').pop() || 'anonymous'})` : '?';
  };
  // Each sample stands for the time until the next one; idle samples are left out.
  const weight = samples.map(([ts], i) => (i + 1 < samples.length ? samples[i + 1][0] - ts : 0));
  const functions = (task) => {
    const self = new Map();
    const total = new Map();
    let sum = 0;
    samples.forEach(([ts, id], i) => {
      if (ts < task.ts || ts > task.ts + task.dur || nameOf(id) === '(idle)') return;
      const w = ms(weight[i]);
      sum += w;
      self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + w);
      const seen = new Set();
      for (let n = nodes.get(id); n; n = nodes.get(n.parent)) {
        const name = nameOf(n.id);
        if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + w);
        seen.add(name);
      }
    });
    return { sum, self, total };
  };
  // Parents are not recorded for ProfileChunk nodes in every version; rebuild them from children.
  for (const n of nodes.values()) for (const c of n.children ?? []) if (nodes.get(c)) nodes.get(c).parent = n.id;
  return {
    fcp: fcp ? ms(fcp.ts - t0) : undefined,
    tasks: long.map((task) => ({
      start: ms(task.ts - t0),
      wall: ms(task.dur),
      cpu: ms(task.tdur ?? 0),
      afterFcp: !fcp || task.ts >= fcp.ts,
      what: inside
        .filter((e) => e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur)
        .filter((e, _, all) => !all.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur))
        .map((e) => `${e.name}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''} ${ms(e.dur).toFixed(0)}`)
        .join(', '),
      functions: profile ? functions(task) : undefined,
    })),
    // The whole load, from the request of the page to the end of the trace.
    load: profile ? functions({ ts: t0, dur: Infinity }) : undefined,
    allCpu: ms(tasks.reduce((s, e) => s + (e.tdur ?? 0), 0)),
    // Lighthouse's simulation (THROTTLE=1): every task after the first paint taken 4 times as
    // long, the part over 50 ms summed; from CPU times, which the machine's load barely moves.
    simulated: ms(
      tasks
        .filter((e) => !fcp || e.ts >= fcp.ts)
        .reduce((s, e) => s + Math.max(0, 4 * (e.tdur ?? 0) - 50_000), 0),
    ),
  };
}

/** The `n` heaviest functions, as "name ms", without Rust's hash suffix. */
const top = (map, n, filter = () => true) =>
  [...map]
    .filter(([name]) => filter(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, t]) => {
      const short = name.replace(/::h[0-9a-f]{16}$/, '');
      return `${short.length > 80 ? short.slice(0, 80) + '…' : short} ${t.toFixed(1)}`;
    })
    .join('; ');

const site = await serve(process.env.DIST ?? join(ROOT, 'dist'));
const browser = await launchChromium(['--no-first-run']);
const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'v8.execute'];
if (profile) categories.push('disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.cpu_profiler.hires');
try {
  for (let round = 1; round <= rounds; round++) {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1.75, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
    await browser.startTracing(page, { categories });
    await page.goto(site.url + (query ? `?${query}` : ''));
    await page.locator('.idem-lab[data-ready="true"]').waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1000);
    const result = analyse(await browser.stopTracing());
    const cls = await page.evaluate(
      () =>
        new Promise((ok) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
            ok(sum);
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => ok(sum), 200);
        }),
    );
    const blocking = (key) =>
      result.tasks.filter((t) => t.afterFcp).reduce((s, t) => s + Math.max(0, t[key] - 50), 0); // tasks under LONG are left out
    console.log(
      `round ${round}: FCP ${result.fcp?.toFixed(0)} ms; ${result.tasks.length} tasks > ${LONG} ms; ` +
        `blocking after FCP ${blocking('wall').toFixed(0)} ms wall / ${blocking('cpu').toFixed(0)} ms cpu; ` +
        `main thread cpu ${result.allCpu.toFixed(0)} ms; CLS ${cls.toFixed(4)}` +
        (SLOWDOWN === 1 ? `; 4 x cpu blocking (Lighthouse's simulation) ${result.simulated.toFixed(0)} ms` : ''),
    );
    for (const t of result.tasks) {
      console.log(
        `  +${t.start.toFixed(0).padStart(5)} ms  ${t.wall.toFixed(0).padStart(4)} wall ${t.cpu.toFixed(0).padStart(4)} cpu  ${t.what}`,
      );
      if (t.functions?.sum) {
        const { sum, self, total } = t.functions;
        console.log(`      sampled ${sum.toFixed(0)} ms; self: ${top(self, 8)}`);
        console.log(`      inclusive, this crate and the core: ${top(total, 16, (n) => /^<?idem_(web|core)::/.test(n))}`);
      }
    }
    if (result.load?.sum) {
      const { sum, self, total } = result.load;
      console.log(`  whole load: sampled ${sum.toFixed(0)} ms; self: ${top(self, 14)}`);
      console.log(`  whole load, inclusive: ${top(total, 40, (n) => /^<?idem_(web|core)::/.test(n))}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await site.close();
}
