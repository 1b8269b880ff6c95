// Screenshots of the drawing defects issue #42 listed, of who is speaking (its item 1) and of
// the words its stop-52 review tripped on (`words-*`), at 1280 px and 360 px, in English and
// Russian, into docs/screenshots/<when>-<defect>-<width>-<lang>.png (`when` is the first
// argument: "before" was taken on the build before the fix, "after" on the one after). Each is
// the part of the page the defect is in, not the whole page, so the files stay small.
//   node tests/e2e/shots-overlap.mjs after   (dist/ built; OUT= writes elsewhere, ONLY=a,b some)
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { start } from './harness.mjs';
import { WHEN, OUT, WIDTHS, LANGS, wanted, settle } from './shots.mjs';

/** name → [deep link, what to photograph, the widths it is a defect at (both when left out)]. */
const DEFECTS = {
  // "will crash before: …" spilled out of the Payment API's card.
  'crash-status': ['scenario=crash-window&step=2', '.topology-frame'],
  // "charge $100.00" and "pay_abc" passing each other on the processor's slanted link.
  'passing-packets': ['scenario=lease-expiry&step=19', '.topology-frame'],
  // "wrote nothing · found 1 row" over both cards and over "wrote 1 row".
  'wrote-nothing': ['scenario=cas-race&step=6', '.topology-frame'],
  // A lost reply's cross over its caption in the sequence diagram.
  'lost-cross': ['scenario=naive&step=16', '[data-testid="sequence"]'],
  // The ledger's table against its card's border.
  'ledger-table': ['scenario=naive&step=16', '[data-testid="panel-ledger"]'],
  // The store's keys in the scope story ("idem:user_1:K / 1" wrapped there).
  'store-key': ['scenario=scope&step=22', '[data-testid="panel-store"]'],
  // The phone's request in Russian ("POST /charges $100,00" wrapped there).
  'client-request': ['scenario=scope&step=22', '[data-testid="panel-client"]'],
  // Compare mode said "Both sides: still running." before anything had run.
  'compare-before-play': ['scenario=naive&compare=key&base=1', '[data-testid="compare-diff"]'],
  // The phone's story row: the second story button cut at the screen's edge, no sign it scrolls.
  'story-row': ['scenario=naive', 'nav.scenarios:not(.shell-stories)', ['360']],
  // The phone's sequence diagram cut on the right ("#4 INSER"): its hint that it scrolls (there
  // since #15, f5be4fc; a build before the #42 fixes shows the same), so "after" only.
  'sequence-scroll': ['scenario=naive&step=16', 'section.sequence', ['360']],
  // Who is speaking (item 1): the lease run while a stalled handler and the retry's both have
  // packets in flight (their rings, the bar's words on a phone, the narration's speakers)...
  'speaker-player': ['scenario=lease-expiry&step=20', '#player'],
  // ...and the sequence diagram's badges at the end of the run, each the attempt's number.
  'speaker-sequence': ['scenario=lease-expiry&step=31', '[data-testid="sequence"]'],
  // The drawing's text under 12 px at 1280 (node statuses 11.4 px, subtitles and badges 10.9:
  // the drawing was scaled to 0.91); the summary column beside it is 280 px since.
  'text-12px': ['scenario=key&step=6', '.stage', ['1280']],
  // The last SQL statement, cut at 11 rem mid-statement; its table's headers at 11.5 px.
  'sql-box': ['scenario=naive&step=16', '[data-testid="panel-ledger"]'],
  // Attempt 3's ring past the phone's right edge, its purple the processor's; no legend.
  'ring-edge': ['scenario=lease-expiry&step=20', '.topology-frame'],
  // cas-race's two operations, each on its attempt 1: both badges said "1".
  'op-badges': ['scenario=cas-race&step=4', '.topology-frame'],
  // ...and in the sequence diagram, both ①.
  'op-badges-sequence': ['scenario=cas-race&step=9', '[data-testid="sequence"]'],
  // The words the stop-52 review tripped on (#42 items 1-13), each where the words are.
  // Items 1, 11: "The phone (attempt 2): The phone …" and the 409's "took it over from this one".
  'words-speaker-409': ['scenario=lease-expiry&step=13', '#player'],
  // Item 2: Redis's answer under the retry's handler's name.
  'words-speaker-backend': ['scenario=lease-expiry&step=9', '#player'],
  // Item 1: "The stalled handler (attempt 1): The stalled handler carries on"; item 9 (the
  // processor's missing key) in the same step.
  'words-speaker-stalled': ['scenario=lease-expiry&step=19', '#player'],
  // Item 4: "PostgreSQL runs this step's SQL: 1 statement" standing alone.
  'words-speaker-sql': ['scenario=lease-expiry&step=27', '#player'],
  // Item 10: the note about real processors (lease-fencing step 17 as the counter shows it).
  'words-fenced': ['scenario=lease-fencing&step=20', '#player'],
  // Item 3: lease-fencing's late 409, once "The phone (attempt 1)".
  'words-late-409': ['scenario=lease-fencing&step=25', '#player'],
  // Stop 53's review (item 1): an answer and the phone's reaction to it name the attempt whose
  // request it answers, not the phone's latest ("attempt 3" for attempt 1's 409), and the
  // legend lists every attempt alive or speaking. Named by the visible step the review read
  // (`step=` counts the core's steps).
  'speaker-lease-fencing-21': ['scenario=lease-fencing&step=25', '#player'],
  'speaker-lease-fencing-10': ['scenario=lease-fencing&step=11', '#player'],
  'speaker-lease-expiry-28': ['scenario=lease-expiry&step=32', '#player'],
  // Item 3: the lease running out and the Retry press, one event an item.
  'speaker-lease-expiry-13': ['scenario=lease-expiry&step=14', '#player'],
  // Story 2 with Retry pressed before the first answer came back: attempt 1's 201.
  'speaker-key-early-18': ['scenario=key&faults=2.retry&step=19', '#player'],
  'speaker-concurrent-no-lock-21': ['scenario=concurrent-no-lock&step=21', '#player'],
  // Item 13: cas-race's two operations, each on its attempt 1.
  'words-cas-race': ['scenario=cas-race&step=6', '#player'],
  // Item 6: story 3's 412 (its step 10) and its verdict.
  'words-cas-412': ['scenario=cas&step=12', '#player'],
  // Item 8: story 1's ledger panel (columns, no key).
  'words-naive-ledger': ['scenario=naive&step=16', '[data-testid="panel-ledger"]'],
  // Item 5: "Surprise me" with seed 3 on story 2: 4 drawn, 5 listed.
  'words-chaos-count': ['scenario=key&base=1&chaos=3&faults=2.clock.90000000_4.pause.write-ledger_5.crash.claim-key_8.evict&step=33', '#player'],
};

await mkdir(OUT, { recursive: true });
const lab = await start();
for (const [size, viewport] of WIDTHS) {
  for (const lang of LANGS) {
    for (const [name, [query, part, widths]] of Object.entries(DEFECTS)) {
      if (!wanted(name)) continue;
      if (widths && !widths.includes(size)) continue;
      const page = await lab.open(`${query}&lang=${lang}`, viewport);
      await settle(page);
      await page.locator(part).first().screenshot({ path: join(OUT, `${WHEN}-${name}-${size}-${lang}.png`), animations: 'disabled' });
      await page.context().close();
    }
  }
}
await lab.close();
