// One test per testing-contract id (docs/contract.md) that no other end-to-end test covers: each
// presses the control like a student and checks the state it shows. Only `data-testid`s, their
// `data-*` attributes and visible text are read, never incidental markup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, text, verdict, step, stepUntil } from './harness.mjs';

let lab;
before(async () => {
  lab = await start();
});
after(async () => {
  await lab?.close();
});

/** Clicks the control with this test id, first opening the collapsed section holding it. */
async function press(page, id) {
  const control = page.getByTestId(id);
  if (!(await control.isVisible())) {
    await page.locator(`details:has([data-testid="${id}"]) > summary`).click();
  }
  await control.click();
}

/** Opens the collapsed section with this test id (a `<details>`) and returns its text. */
async function reveal(page, id) {
  const section = page.getByTestId(id);
  if ((await section.getAttribute('open')) === null) {
    await section.locator('summary').first().click();
  }
  assert.equal(await section.getAttribute('open'), '', `${id} opens`);
  // A reading section's text is fetched when it is first opened.
  await section.locator('.more-wait').waitFor({ state: 'detached' });
  return section.innerText();
}

/** The ids of the packets in flight on the phone's link (the ones the fault menu lists). */
const mobilePackets = (page) =>
  page.getByTestId('packet-select').locator('option').evaluateAll(
    (options) => options.map((o) => o.value).filter((v) => v !== ''),
  );

const inFlight = async (page, id) =>
  (await page.locator(`[data-testid=packet][data-msg-id="${id}"]`).count()) > 0;

/** Opens a page; closes it after `body` even when an assertion fails. */
async function withPage(query, body, options) {
  const page = await lab.open(query, undefined, options);
  try {
    const result = await body(page);
    assert.deepEqual(page.errors, [], 'no page errors');
    return result;
  } finally {
    await page.context().close();
  }
}

test('fault-drop: drops the next packet on the phone link', async () => {
  await withPage('scenario=naive&base=1', async (page) => {
    await stepUntil(page, async (p) => (await mobilePackets(p)).length > 0);
    const [request] = await mobilePackets(page);
    await press(page, 'fault-drop');
    assert.equal(await inFlight(page, request), false, 'the packet is gone');
    assert.equal(await page.getByTestId('lost-packet').count(), 1, 'shown lost in this step');
    // The API never saw it: the phone times out, retries once, and is charged once.
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, 'statement-total'), '$100.00');
    assert.equal(await verdict(page), 'ok');
    assert.match(page.url(), new RegExp(`faults=\\d+\\.drop\\.${request}`));
  });
});

test('fault-delay: the chosen packet arrives a second later', async () => {
  // The time on the clock when the first request has arrived, with or without the delay.
  const arrival = (delay) =>
    withPage('scenario=naive&base=1', async (page) => {
      await stepUntil(page, async (p) => (await mobilePackets(p)).length > 0);
      const [request] = await mobilePackets(page);
      if (delay) await press(page, 'fault-delay');
      await stepUntil(page, async (p) => !(await inFlight(p, request)));
      return text(page, 'clock');
    });
  assert.equal(await arrival(false), 't = 0.300 s');
  assert.equal(await arrival(true), 't = 1.300 s', 'delayed by one second');
});

test('packet-select: the menu acts on the chosen packet, not the first one', async () => {
  await withPage('scenario=key&base=1', async (page) => {
    await stepUntil(page, async (p) => (await mobilePackets(p)).length > 0);
    await press(page, 'fault-duplicate');
    const [original, copy] = await mobilePackets(page);
    assert.ok(copy !== undefined, 'the request and its copy are listed');
    await page.getByTestId('packet-select').selectOption(copy);
    await press(page, 'fault-drop');
    assert.equal(await inFlight(page, copy), false, 'the chosen copy was dropped');
    assert.equal(await inFlight(page, original), true, 'the first packet is untouched');
  });
});

test('crash-phase: the crash happens at the chosen phase', async () => {
  // Crashing before the processor is called loses nothing: the retry charges once. Crashing
  // before the key is recorded (after the charge) charges twice.
  for (const [phase, total, v] of [
    ['call-processor', '$100.00', 'ok'],
    ['record-key', '$200.00', 'violated'],
  ]) {
    await withPage('scenario=key&base=1', async (page) => {
      await page.getByTestId('step-forward').click();
      if (!(await page.getByTestId('crash-phase').isVisible())) {
        await page.locator('details:has([data-testid="crash-phase"]) > summary').click();
      }
      await page.getByTestId('crash-phase').selectOption(phase);
      await press(page, 'fault-crash');
      assert.match(page.url(), new RegExp(`crash\\.${phase}`));
      await page.getByTestId('run-to-end').click();
      assert.equal(await text(page, 'statement-total'), total, phase);
      assert.equal(await verdict(page), v, phase);
    });
  }
});

test('fault-evict: an evicted key lets the retry charge again', async () => {
  await withPage('scenario=key', async (page) => {
    // Wait until the key is stored, then evict it before the lost ack's retry arrives.
    await stepUntil(page, async (p) => (await p.getByTestId('redis-last').count()) > 0
      && (await text(p, 'redis-last')).includes('completed'));
    await press(page, 'fault-evict');
    assert.match(page.url(), /\d+\.evict/);
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, 'statement-total'), '$200.00');
    assert.equal(await verdict(page), 'violated');
  });
});

test('fault-clock: 25 h pass and the key has expired when the phone retries', async () => {
  await withPage('scenario=key&base=1', async (page) => {
    await page.getByTestId('step-forward').click();
    await page.getByTestId('drop-next-ack').click();
    await press(page, 'fault-clock');
    assert.match(page.url(), /\d+\.clock\.90000000/);
    await page.getByTestId('run-to-end').click();
    assert.match(await text(page, 'clock'), /^t = 25 ?h/);
    assert.equal(await text(page, 'statement-total'), '$200.00', 'the retry is a new payment');
    assert.equal(await verdict(page), 'violated');
  });
});

test('fault-concurrent: a second request with the same key gets 409', async () => {
  await withPage('scenario=key&base=1', async (page) => {
    await page.getByTestId('step-forward').click();
    await press(page, 'fault-concurrent');
    assert.equal((await mobilePackets(page)).length, 2, 'two requests in flight');
    await page.getByTestId('run-to-end').click();
    const wire = await reveal(page, 'transcript');
    assert.match(wire, /HTTP\/1\.1 409/);
    assert.equal(await text(page, 'statement-total'), '$100.00');
    assert.equal(await verdict(page), 'ok');
  });
});

test('fault-reuse-key: the same key with another body gets 422', async () => {
  await withPage('scenario=key&base=1', async (page) => {
    await page.getByTestId('run-to-end').click();
    await press(page, 'fault-reuse-key');
    await page.getByTestId('run-to-end').click();
    const wire = await reveal(page, 'transcript');
    assert.match(wire, /HTTP\/1\.1 422/);
    assert.equal(await text(page, 'statement-total'), '$100.00', 'only the first payment');
    assert.equal(await verdict(page), 'ok');
  });
});

test('fault-other-user: another user with the same key is not shown the payment', async () => {
  for (const [query, v] of [['scenario=key&base=1', 'ok'], ['scenario=scope-off&base=1', 'violated']]) {
    await withPage(query, async (page) => {
      await page.getByTestId('run-to-end').click();
      await press(page, 'fault-other-user');
      await page.getByTestId('run-to-end').click();
      assert.equal(await verdict(page), v, query);
      const client = await text(page, 'panel-client');
      assert.match(client, /#2/, 'the second operation is listed');
    });
  }
});

test('restart: back to step 0 with the same run', async () => {
  await withPage('scenario=naive', async (page) => {
    await page.getByTestId('run-to-end').click();
    const total = await text(page, 'step-total');
    await page.getByTestId('restart').click();
    assert.equal(await step(page), 0);
    assert.equal(await text(page, 'clock'), 't = 0.000 s');
    assert.equal(await text(page, 'statement-total'), '$0.00');
    assert.equal(await page.getByTestId('packet').count(), 0, 'nothing in flight');
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, 'step-total'), total, 'the same run again');
    assert.equal(await text(page, 'statement-total'), '$200.00');
  });
});

test('step-total and clock: steps known so far and the simulated time', async () => {
  await withPage('scenario=naive', async (page) => {
    assert.equal(await text(page, 'clock'), 't = 0.000 s');
    for (let i = 0; i < 3; i++) await page.getByTestId('step-forward').click();
    // The naive trace: step 3 delivers the request at 300 ms.
    assert.equal(await step(page), 3);
    assert.equal(await text(page, 'clock'), 't = 0.300 s');
    assert.ok(Number(await text(page, 'step-total')) >= 3);
    await page.getByTestId('run-to-end').click();
    const end = await step(page);
    assert.equal(Number(await text(page, 'step-total')), end, 'all steps known at the end');
    await page.getByTestId('step-back').click();
    assert.equal(await step(page), end - 1);
    assert.equal(Number(await text(page, 'step-total')), end, 'going back forgets nothing');
  });
});

const PROTECTIONS = [
  'key', 'require-key', 'fingerprint', 'lock', 'fencing', 'scope', 'same-tx',
  'forward', 'cas', 'reconcile', 'op-id', 'unique-index', 'recovery', 'deadline', 'status-check',
];

// The toggles each story shows, and the ones its seed scenario has on.
const TOGGLES = [
  {
    query: 'scenario=key',
    // The story's own five first, then the rest folded by what they protect (issue 42, item 5).
    shown: ['key', 'require-key', 'fingerprint', 'lock', 'scope', 'fencing', 'same-tx', 'forward', 'recovery', 'deadline', 'status-check'],
    on: ['key', 'require-key', 'fingerprint', 'lock', 'scope'],
    off: 'key',
    figure: ['statement-total', '$200.00'],
  },
  { query: 'scenario=cas', shown: ['cas', 'reconcile'], on: ['cas'], off: 'cas', figure: ['balance', '60'] },
  {
    query: 'scenario=counter',
    shown: ['op-id', 'unique-index'],
    on: ['op-id', 'unique-index'],
    off: 'unique-index',
    figure: ['likes', '102'],
  },
];

test('protect-<name>: the story\'s toggles show the protections on and change the run', async () => {
  const seen = new Set();
  const hinted = new Set();
  for (const { query, shown, on, off, figure } of TOGGLES) {
    await withPage(query, async (page) => {
      const toggles = page.locator('[data-testid^="protect-"]');
      const names = await toggles.evaluateAll((all) =>
        all.map((t) => t.getAttribute('data-testid').slice('protect-'.length)));
      assert.deepEqual(names, shown, query);
      const checked = [];
      for (const name of names) {
        seen.add(name);
        if (await page.locator(`[data-protect="${name}"]`).isChecked()) checked.push(name);
        // Its hint: there, not empty, and what the checkbox is described by.
        const hint = page.getByTestId(`hint-${name}`);
        assert.equal(await hint.count(), 1, `hint-${name} in ${query}`);
        assert.notEqual((await hint.textContent()).trim(), '', `hint-${name} has words`);
        assert.equal(await page.locator(`[data-protect="${name}"]`).getAttribute('aria-describedby'), `hint-${name}`);
        hinted.add(name);
      }
      assert.deepEqual(checked, on, query);
      await page.getByTestId(`protect-${off}`).click();
      assert.equal(await page.locator(`[data-protect="${off}"]`).isChecked(), false);
      assert.equal(await step(page), 0, 'the run is rebuilt');
      assert.match(page.url(), /protect=/);
      assert.doesNotMatch(new URL(page.url()).searchParams.get('protect') ?? '', new RegExp(`(^|\\.)${off}(\\.|$)`));
      await page.getByTestId('run-to-end').click();
      assert.equal(await text(page, figure[0]), figure[1], `${query} without ${off}`);
      assert.equal(await verdict(page), 'violated');
    });
  }
  assert.deepEqual([...seen].sort(), [...PROTECTIONS].sort(), 'every protection has a toggle in some story');
  assert.deepEqual([...hinted].sort(), [...PROTECTIONS].sort(), 'every protection has its hint-<name>');
});

test('challenge-<id>: each button of the list opens its challenge', async () => {
  const ids = ['redis-2', 'op-id-no-index', 'lease-2', 'fully-3'];
  await withPage('scenario=key', async (page) => {
    const listed = await page.locator('[data-testid^="challenge-"][aria-pressed]').evaluateAll((all) =>
      all.map((b) => b.getAttribute('data-testid').slice('challenge-'.length)));
    assert.deepEqual(listed, ids, 'the list holds every challenge');
    for (const id of ids) {
      await press(page, `challenge-${id}`);
      await page.getByTestId('challenge').waitFor();
      assert.equal(new URL(page.url()).searchParams.get('challenge'), id);
      assert.equal(await page.getByTestId(`challenge-${id}`).getAttribute('aria-pressed'), 'true', id);
      const others = ids.filter((o) => o !== id);
      for (const o of others) {
        assert.equal(await page.getByTestId(`challenge-${o}`).getAttribute('aria-pressed'), 'false', `${o} while ${id}`);
      }
      assert.equal(await page.getByTestId('challenge').getAttribute('data-status'), 'open', id);
      assert.equal(await step(page), 0, `${id} starts at step 0`);
    }
  });
});

test('lost-packet: the lost ack shows in the step it was lost, and only there', async () => {
  await withPage('scenario=naive', async (page) => {
    await stepUntil(page, async (p) => (await p.getByTestId('lost-packet').count()) > 0);
    const here = await step(page);
    const ghost = page.getByTestId('lost-packet');
    assert.equal(await ghost.getAttribute('data-step'), String(here));
    assert.match(await text(page, 'narration'), /lost|swallow/i);
    await page.getByTestId('step-forward').click();
    assert.equal(await page.getByTestId('lost-packet').count(), 0);
  });
});

test('seq-arrow: one arrow per message, pressing one jumps to its step', async () => {
  await withPage('scenario=naive', async (page) => {
    await page.getByTestId('run-to-end').click();
    const arrows = page.getByTestId('seq-arrow');
    const count = await arrows.count();
    // The naive trace sends messages #0…#N: one arrow each, ids in order.
    const ids = await arrows.evaluateAll((all) => all.map((a) => Number(a.getAttribute('data-msg-id'))));
    assert.deepEqual(ids, [...Array(count).keys()]);
    assert.ok(count >= 10, `${count} arrows`);
    const third = arrows.nth(2);
    const jump = Number(await third.getAttribute('data-jump'));
    assert.ok(jump > 0 && jump < (await step(page)));
    await third.click();
    assert.equal(await step(page), jump);
  });
});

test('rows-affected, sql-last: the last SQL batch and its rows', async () => {
  await withPage('scenario=naive', async (page) => {
    assert.equal(await page.getByTestId('rows-affected').count(), 0, 'no SQL yet');
    assert.equal(await page.getByTestId('sql-last').count(), 0);
    await stepUntil(page, async (p) => (await p.getByTestId('sql-last').count()) > 0);
    const sql = await text(page, 'sql-last');
    // The naive design has no key: its INSERT names no key column and has no ON CONFLICT
    // (issue 42, stop 52: the SQL and the panel agree).
    assert.match(sql, /^INSERT INTO charges \(payment_id, user_id, amount_cents\) VALUES \('pay_abc', 1, 10000\);\n-- wrote 1 row$/);
    // This step ran the SQL: its rows are shown beside "Last statement", once.
    assert.equal(await page.getByTestId('rows-affected').count(), 1);
    assert.equal(await text(page, 'rows-affected'), 'wrote 1 row');
    assert.equal(await page.getByTestId('sql-last').getByTestId('rows-affected').count(), 0);
    // Later steps show them on the SQL block's `--` line instead.
    await page.getByTestId('step-forward').click();
    assert.equal(await page.getByTestId('rows-affected').count(), 1);
    assert.equal(await page.getByTestId('sql-last').getByTestId('rows-affected').count(), 1);
    assert.equal(await text(page, 'rows-affected'), 'wrote 1 row');
  });
  // The counter's retry: the op_id is already there, nothing is incremented (the INSERT and
  // the UPDATE wrote nothing; the SELECT found the post).
  await withPage('scenario=counter', async (page) => {
    await page.getByTestId('run-to-end').click();
    assert.equal(await text(page, 'rows-affected'), 'wrote nothing · found 1 row');
    // The op_id is written as the like_ops table shows it (issue 42).
    assert.match(await text(page, 'sql-last'), /INSERT INTO like_ops \(op_id\) VALUES \('op1'\) ON CONFLICT DO NOTHING/);
  });
});

test('redis-last: the last Redis command with its reply', async () => {
  await withPage('scenario=key', async (page) => {
    assert.equal(await page.getByTestId('redis-last').count(), 0, 'no command yet');
    await stepUntil(page, async (p) => (await p.getByTestId('redis-last').count()) > 0);
    const redis = await text(page, 'redis-last');
    assert.match(redis, /^> SET idem:user_1:\S+ '.*' NX PX \d+/);
    assert.match(redis, /\nOK\s*$/);
  });
});

test('transcript-copy: copies the HTTP transcript', async () => {
  await withPage(
    'scenario=naive&step=20',
    async (page) => {
      const wire = await reveal(page, 'transcript');
      assert.match(wire, /POST \/charges HTTP\/1\.1/);
      const button = page.getByTestId('transcript-copy');
      const before = await button.innerText();
      await button.click();
      // It says so once the browser has answered (the clipboard's write is a promise).
      await page.waitForFunction((before) => document.querySelector('[data-testid=transcript-copy]').innerText !== before, before);
      assert.match(await button.innerText(), /Copied/, 'the button says it copied');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(copied, /POST \/charges HTTP\/1\.1/);
      assert.match(copied, /201 Created/);
    },
    { permissions: ['clipboard-read', 'clipboard-write'] },
  );
});

test('panel-client, panel-store, panel-ledger, panel-processor: the four machines', async () => {
  await withPage('scenario=key', async (page) => {
    await page.getByTestId('run-to-end').click();
    const client = await text(page, 'panel-client');
    const key = await text(page, 'client-key');
    assert.ok(key.length > 0 && client.includes(key), 'the phone shows its key');
    assert.match(client, /#1/);
    const store = await text(page, 'panel-store');
    assert.match(store, /K1/, 'the key, by its short name');
    const ledger = await text(page, 'panel-ledger');
    assert.match(ledger, /pay_abc/);
    const processor = await text(page, 'panel-processor');
    assert.match(processor, /pay_abc/);
    assert.match(processor, /\$100\.00/);
    assert.doesNotMatch(processor, /\$200\.00/);
  });
});

test('when-not and exactly-once: the two reading sections open', async () => {
  await withPage('scenario=naive', async (page) => {
    const when = await reveal(page, 'when-not');
    assert.match(when, /\bGET\b/);
    assert.match(when, /\bPUT\b/);
    const exactly = await reveal(page, 'exactly-once');
    assert.match(exactly, /at-least-once/i);
    assert.match(exactly, /idempoten/i);
  });
});
