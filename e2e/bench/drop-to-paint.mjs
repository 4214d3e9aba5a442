// Drop-to-paint: how long the playground takes from dropping a chip to the next paint, with a 200-event
// scenario on 3 brokers shown under three variants side by side, in headless Chromium. A measurement, never an
// assertion: it prints figures and exits 0 whatever they are.
//
//   EPOCHLAB_BASE_URL=http://127.0.0.1:PORT/epochlab/ node e2e/bench/drop-to-paint.mjs [--drops N] [--warmup N]
//   node e2e/bench/drop-to-paint.mjs --scenario      prints the generated scenario (check it with epochlab-cli)
//
// scripts/bench.sh serves a release build and runs this. Each sample is a real drop: pointer events (mouse)
// from the palette's Flush chip onto the end of broker A's lane, so the scenario grows to 201 events; then the
// new chip is focused and removed with the Delete key, back to 200, before the next sample.
//
// In the page, a capture-phase `pointerup` listener on window runs before the app's own (bubble-phase) one
// and records performance.now(). Two figures per drop:
//   - DOM updated: the first macrotask turn after the pointerup at which the timeline holds the new chip (the
//     reducer, the re-run of the three variants, Yew's render and effects, localStorage included);
//   - next paint: the first animation frame that starts with the new chip in the DOM, then a setTimeout(0)
//     queued from its requestAnimationFrame callback, which runs once that frame's style, layout and paint are
//     done. It includes the wait for the frame (up to one vsync interval, ~16.7 ms at 60 Hz).
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

const VARIANTS = ['hw-truncation', 'kip-279', 'kafka-2.1'];
const BROKERS = ['A', 'B', 'C'];
const EVENTS = 200;
const CHIPS = '.timeline [data-testid^="chip-"][data-kind]';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * A deterministic, realistic 200-event scenario on A, B and C: the controller elects A, then rounds of produce
 * and follower fetches with a settle, a consume now and then, and every fifth round a broker (in turn C, B, A)
 * crashes, the controller is asked for an election, the cluster produces without it, and it restarts.
 */
export function scenario() {
  const events = [{ kind: 'elect' }];
  let round = 0;
  let produced = 0;
  const produce = (acks) => {
    const e = { kind: 'produce', record: `m${++produced}` };
    if (acks !== undefined) e.acks = acks;
    events.push(e);
  };
  while (events.length < EVENTS) {
    round++;
    produce();
    events.push({ kind: 'fetch', broker: 'B' });
    events.push({ kind: 'fetch', broker: 'C' });
    produce(round % 3 === 0 ? 1 : undefined);
    events.push({ kind: 'settle' });
    if (round % 4 === 0) events.push({ kind: 'consume' });
    if (round % 5 === 0) {
      const victim = ['C', 'B', 'A'][(round / 5) % 3];
      events.push({ kind: 'crash', broker: victim });
      events.push({ kind: 'elect' });
      produce();
      events.push({ kind: 'settle' });
      events.push({ kind: 'restart', broker: victim });
      events.push({ kind: 'settle' });
    }
  }
  events.length = EVENTS;
  return {
    version: 1,
    name: 'Bench: 200 events on 3 brokers',
    brokers: BROKERS,
    config: { variant: VARIANTS[0] },
    events,
  };
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
}

const fmt = (x) => x.toFixed(1);

async function main() {
  if (process.argv.includes('--scenario')) {
    console.log(JSON.stringify(scenario(), null, 2));
    return;
  }
  const base = process.env.EPOCHLAB_BASE_URL;
  if (!base) throw new Error('EPOCHLAB_BASE_URL is not set: run this through scripts/bench.sh (make bench)');
  const drops = arg('--drops', 30);
  const warmup = arg('--warmup', 5);

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    await page.goto(base);
    const stored = { scenario: scenario(), variants: VARIANTS, cursor: EVENTS - 1 };
    await page.evaluate((v) => localStorage.setItem('epochlab.working.v1', v), JSON.stringify(stored));
    await page.reload();
    // Long timelines render only the columns near the visible part: check the last chip and the step count.
    await page.getByTestId(`chip-${EVENTS - 1}`).waitFor();
    const position = await page.getByTestId('cursor-position').textContent();
    if (!position.startsWith(`Step ${EVENTS - 1} of ${EVENTS - 1}`)) throw new Error(`the bench scenario did not load: ${position}`);
    for (const v of VARIANTS) await page.getByTestId(`variant-${v}`).waitFor();
    const rejected = await page.locator('.timeline .chip__reason').count();

    // The in-page probe: armed before each drop, it times the pointerup that ends it.
    await page.evaluate((chipsSelector) => {
      const w = window;
      w.__bench = { samples: [], armed: null };
      // The drop landed once the chip of the new last step is in the DOM (the view follows the end, and long
      // timelines render only the columns near it).
      const landed = (expect) => document.querySelector(`${chipsSelector}[data-testid="chip-${expect - 1}"]`) !== null;
      window.addEventListener(
        'pointerup',
        () => {
          const armed = w.__bench.armed;
          if (!armed) return;
          w.__bench.armed = null;
          const t0 = performance.now();
          const sample = { dom: null, paint: null };
          const domCheck = () => {
            if (landed(armed.expect)) sample.dom = performance.now() - t0;
            else setTimeout(domCheck, 0);
          };
          setTimeout(domCheck, 0);
          const frame = () => {
            if (!landed(armed.expect)) return requestAnimationFrame(frame);
            setTimeout(() => {
              sample.paint = performance.now() - t0;
              w.__bench.samples.push(sample);
            }, 0);
          };
          requestAnimationFrame(frame);
        },
        { capture: true },
      );
    }, CHIPS);

    const palette = page.getByTestId('palette-flush');
    const end = page.locator('[data-drop-lane="0"][data-drop-step="end"]');
    const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

    const samples = [];
    for (let i = 0; i < warmup + drops; i++) {
      await end.scrollIntoViewIfNeeded();
      await palette.scrollIntoViewIfNeeded();
      const s = await palette.boundingBox();
      const t = await end.boundingBox();
      await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
      await page.mouse.down();
      await page.mouse.move(s.x + s.width / 2 + 12, s.y + s.height / 2 + 12, { steps: 3 });
      await page.mouse.move(t.x + t.width * 0.25, t.y + t.height / 2, { steps: 8 });
      // Let the drag's own renders and paints finish, so the sample times the drop alone.
      await settle();
      const before = await page.evaluate(() => window.__bench.samples.length);
      await page.evaluate((n) => (window.__bench.armed = { expect: n }), EVENTS + 1);
      await page.mouse.up();
      await page.waitForFunction((n) => window.__bench.samples.length > n, before);
      const sample = await page.evaluate(() => window.__bench.samples.at(-1));
      const added = page.getByTestId(`chip-${EVENTS}`);
      if ((await added.getAttribute('data-kind')) !== 'flush') throw new Error(`drop ${i}: no Flush chip at step ${EVENTS}`);
      if (i >= warmup) samples.push(sample);
      // Back to 200 events with the keyboard.
      await added.focus();
      await page.keyboard.press('Delete');
      await page.waitForFunction((n) => !document.querySelector(`[data-testid="chip-${n}"]`), EVENTS);
      await settle();
    }
    if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);

    const dom = stats(samples.map((s) => s.dom));
    const paint = stats(samples.map((s) => s.paint));
    const ua = await browser.version();
    console.log(
      `drop-to-paint setup: ${EVENTS} events (${rejected} rejected steps), brokers ${BROKERS.join(', ')}, ` +
        `variants ${VARIANTS.join(', ')}; ${drops} drops after ${warmup} warm-ups; headless Chromium ${ua}, 1280x900`,
    );
    console.log(
      `drop to DOM updated: median ${fmt(dom.median)} ms, p95 ${fmt(dom.p95)} ms (min ${fmt(dom.min)}, max ${fmt(dom.max)})`,
    );
    console.log(
      `drop to next paint: median ${fmt(paint.median)} ms, p95 ${fmt(paint.p95)} ms (min ${fmt(paint.min)}, max ${fmt(paint.max)}); ` +
        `budget 16 ms: median ${paint.median < 16 ? 'under' : 'OVER'}, p95 ${paint.p95 < 16 ? 'under' : 'OVER'}`,
    );
    console.log('(measurements, not assertions: nothing fails on these numbers)');
  } finally {
    await browser.close();
  }
}

// Run when executed (not when imported for its scenario generator).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`drop-to-paint: ${e.message}`);
    process.exit(1);
  });
}
