// What issue #42 item 7 asks of the phone, read from the page as it is laid out: shared by
// tests/e2e/phone.test.mjs (which asserts on it) and measure-phone.mjs (which reports it).

/** Facts of the page as laid out now:
 * - `predict`, `play`: whether the prediction's choices and the Play button are wholly inside
 *   the window;
 * - `cutChips`: the story buttons cut by their row's or the window's edge, and `chipRow`:
 *   whether that row scrolls sideways, says so (`stories-scroll` hint shown) and fades at its edge;
 * - `drawingMinPx`: the smallest font of any text in the player's drawing (the topology), in
 *   CSS px as shown (font size × the drawing's scale), with the text that has it;
 * - `sequence`: whether the sequence diagram is wider than its box and whether its scroll hint
 *   is shown. */
export function phoneFacts(page) {
  return page.evaluate(() => {
    const inside = (el) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= -0.5 && r.bottom <= innerHeight + 0.5 && r.left >= -0.5 && r.right <= innerWidth + 0.5;
    };
    const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const options = document.querySelector('[data-testid="predict"] .predict-options');
    const play = document.querySelector('[data-testid="play-pause"]');
    const row = document.querySelector('nav.scenarios:not(.shell-stories) .chips.stories');
    const rowRect = row?.getBoundingClientRect();
    const cutChips = row
      ? [...row.querySelectorAll('.chip')]
          .filter((c) => {
            const r = c.getBoundingClientRect();
            return r.left < rowRect.left - 0.5 || r.right > rowRect.right + 0.5 || r.right > innerWidth + 0.5;
          })
          .map((c) => c.dataset.testid)
      : [];
    const hint = document.querySelector('[data-testid="stories-scroll"]');
    const chipRow = row && {
      scrolls: row.scrollWidth > row.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(row).overflowX),
      hint: shown(hint),
      fade: row.parentElement?.dataset.more === 'true',
    };
    let drawingMinPx = null;
    for (const t of document.querySelectorAll('.topology-frame svg text')) {
      if (!shown(t) || !t.textContent.trim()) continue;
      const ctm = t.getScreenCTM();
      if (!ctm) continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(ctm.a, ctm.b);
      if (!drawingMinPx || px < drawingMinPx.px) drawingMinPx = { px: Math.round(px * 100) / 100, text: t.textContent.trim() };
    }
    const scroll = document.querySelector('.sequence-scroll');
    const sequence = scroll && {
      overflows: scroll.scrollWidth > scroll.clientWidth + 1,
      hint: shown(document.querySelector('[data-testid="sequence-scroll"]')),
    };
    return {
      predict: inside(options),
      play: inside(play),
      cutChips,
      chipRow,
      drawingMinPx,
      sequence,
    };
  });
}
