// Drop-to-paint: how long the playground takes from dropping a chip to the next paint, in headless Chromium,
// and how that grows with the scenario's size, up to the limit of 1,000 events. A measurement, never an
// assertion: it prints figures and exits 0 whatever they are.
//
//   EPOCHLAB_BASE_URL=http://127.0.0.1:PORT/epochlab/ node e2e/bench/drop-to-paint.mjs
//       [--drops N] [--warmup N] [--cases 200x3,200x4,500x4,1000x4]
//   ... --profile    instead of timings, CPU profiles of the drops: top self-time functions per case and what
//                    grows from the first case to the last (run by scripts/profile-drop.sh; see profile.mjs)
//   node e2e/bench/drop-to-paint.mjs --scenario [EVENTS]   prints a generated scenario (check it with epochlab-cli)
//
// A case EVENTSxVARIANTS is a generated scenario on 3 brokers shown under that many variants side by side
// (3: hw-truncation, kip-279, kafka-2.1, the figure measured since the start; 4 adds kip-101). 200x3 stays first
// so that its figure remains comparable with earlier runs. 200x4 against 1000x4 isolates the event count.
//
// scripts/bench.sh serves a release build and runs this. Each sample is a real drop: pointer events (mouse)
// from the palette's Flush chip onto the end of broker A's lane, so the scenario grows by one event; then the
// new chip is focused and removed with the Delete key before the next sample. The app refuses a scenario of
// more than MAX_EVENTS, so at the limit the scenario holds one event less and the drop makes it exactly 1,000.
//
// Long timelines render only the columns near their visible part (src/viewport.rs), so the harness never
// relies on a chip being drawn by chance: before each drop it scrolls the timeline to its end, where the end
// column (the drop target) and, after the drop, the new chip (found by its step: data-testid="chip-N") are.
//
// Frames start on a fixed cadence (60 Hz: every 16.7 ms). A drop released just after a frame waits most of
// an interval for the next one whatever the page does, one released just before waits for nothing, and a
// person's release is not timed to frames. So the drops are released at evenly spread moments of the
// interval, and each sample splits into what the app does and what it waits for.
//
// In the page, capture-phase listeners on window run before the app's own (bubble-phase) ones. Per drop,
// from the `pointerup` (performance.now()):
//   - handled: until the `click` that ends the release, dispatched once the pointerup's handlers ran (the
//     reducer, the re-run of the variants, Yew's render), plus the layout of the changed page, which
//     the browser does right after that click and the probe forces there so that it is counted;
//   - frame: until the start of the first animation frame showing the new chip (its requestAnimationFrame
//     timestamp); "shown by the first frame" counts drops whose very next frame shows it;
//   - next paint: a setTimeout(0) queued from that frame's requestAnimationFrame callback, which runs once the
//     frame's style, layout, paint and commit are done.
// next paint = handled + waiting for the frame (if it had not come yet) + the frame's rendering; the app's
// work is handled + rendering.
// Between drops the bench waits for the previous edit's debounced work (saving, the address bar) to finish,
// so that a sample times its own drop only.
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';
import { perDrop, printGrowth as printProfileGrowth, printTop, profiler } from './profile.mjs';

/** Variants in the order cases take them: a case of N variants shows the first N. */
const VARIANT_ORDER = ['hw-truncation', 'kip-279', 'kafka-2.1', 'kip-101'];
const BROKERS = ['A', 'B', 'C'];
/** MAX_EVENTS in crates/epochlab-core/src/scenario/mod.rs: the app refuses a drop that would go beyond it. */
const MAX_EVENTS = 1000;
const DEFAULT_CASES = '200x3,200x4,500x4,1000x4,1000x4L';
const CHIPS = '.timeline [data-testid^="chip-"][data-kind]';
const END_CELL = '[data-drop-lane="0"][data-drop-step="end"]';
const VIEWPORT = { width: 1280, height: 900 };
/** One frame at 60 Hz, and how many release moments within it the drops cycle through. */
const FRAME_MS = 1000 / 60;
const BUDGET_MS = 16;
const PHASES = 10;
/** Longer than the Delete's debounced save (300 ms) and address update (400 ms). */
const DEBOUNCE_WAIT_MS = 500;

/** The value after the last `name` in the arguments (a later one overrides a script's default). */
function arg(name, fallback) {
  const i = process.argv.lastIndexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

/**
 * "200x3,1000x4,1000x4L" as cases: the size asked for, the events before the drop (one less at the limit), the
 * variants, and (a trailing L) whether the lessons' module is loaded first (the Learn panel opened and closed).
 */
export function parseCases(spec) {
  return spec.split(',').map((item) => {
    const m = /^(\d+)x([1-4])(L?)$/.exec(item.trim());
    if (!m) throw new Error(`bad case "${item}": expected EVENTSxVARIANTS[L], e.g. 1000x4 or 1000x4L (1 to 4 variants)`);
    const size = Number(m[1]);
    if (size < 1 || size > MAX_EVENTS) throw new Error(`bad case "${item}": 1 to ${MAX_EVENTS} events`);
    const before = Math.min(size, MAX_EVENTS - 1);
    return { size, before, variants: VARIANT_ORDER.slice(0, Number(m[2])), lessons: m[3] === 'L' };
  });
}

/**
 * A deterministic, realistic scenario of `count` events on A, B and C: the controller elects A, then rounds of
 * produce and follower fetches with a settle, a consume now and then, and every fifth round a broker (in turn
 * C, B, A) crashes, the controller is asked for an election, the cluster produces without it, and it restarts.
 */
export function scenario(count = 200, variants = VARIANT_ORDER.slice(0, 3)) {
  const events = [{ kind: 'elect' }];
  let round = 0;
  let produced = 0;
  const produce = (acks) => {
    const e = { kind: 'produce', record: `m${++produced}` };
    if (acks !== undefined) e.acks = acks;
    events.push(e);
  };
  while (events.length < count) {
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
  events.length = count;
  return {
    version: 1,
    name: `Bench: ${count} events on 3 brokers`,
    brokers: BROKERS,
    config: { variant: variants[0] },
    events,
  };
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
}

const fmt = (x) => x.toFixed(1);
const thousands = (n) => n.toLocaleString('en-US');
const verdict = (x) => (x < BUDGET_MS ? 'under' : 'OVER');

/** Opens the case's scenario (through the app's saved working copy) with the cursor on its last step. */
export async function openScenario(page, base, kase) {
  await page.goto(base);
  const stored = { scenario: scenario(kase.before, kase.variants), variants: kase.variants, cursor: kase.before - 1 };
  await page.evaluate((v) => localStorage.setItem('epochlab.working.v1', v), JSON.stringify(stored));
  // Not a reload: the address now holds the landing scenario's link from the first load, and a link wins
  // over the saved copy. The bare address opens the saved one.
  await page.goto(base);
  const last = kase.before - 1;
  const position = page.getByTestId('cursor-position');
  // The release wasm takes a few seconds to draw a large scenario on a loaded machine: wait, then say what shows.
  const loaded = await position
    .filter({ hasText: `Step ${last} of ${last}` })
    .waitFor({ timeout: 20000 })
    .then(() => true, () => false);
  if (!loaded) throw new Error(`the ${kase.before}-event scenario did not load: "${await position.textContent()}"`);
  for (const v of kase.variants) await page.getByTestId(`variant-${v}`).waitFor();
  if (kase.lessons) await loadLessons(page);
  await showTimelineEnd(page);
  await page.getByTestId(`chip-${last}`).waitFor();
}

/** Loads the lessons' module the way a learner does: the Learn panel opened (its list shown) and closed. */
async function loadLessons(page) {
  await page.getByTestId('learn-toggle').click();
  await page.getByTestId('learn-panel').waitFor({ timeout: 20000 });
  await page.getByTestId('learn-toggle').click();
  await page.getByTestId('learn-panel').waitFor({ state: 'detached' });
}

/**
 * Scrolls the timeline to its end and waits until the end column is drawn there: the timeline renders the
 * columns near its scroll position, tracked from scroll events, so it follows on the next render.
 */
async function showTimelineEnd(page) {
  await page.evaluate(() => {
    const scroller = document.querySelector('.timeline__scroll');
    scroller.scrollLeft = scroller.scrollWidth;
  });
  await page.locator(END_CELL).waitFor();
}

/** The in-page probe: armed with the step the dropped chip will have, it times the pointerup that ends the drop. */
async function installProbe(page) {
  await page.evaluate((chipsSelector) => {
    const w = window;
    w.__bench = { samples: [], armed: null };
    const landed = (step) => document.querySelector(`${chipsSelector}[data-testid="chip-${step}"]`) !== null;
    window.addEventListener(
      'pointerup',
      () => {
        const armed = w.__bench.armed;
        if (!armed) return;
        w.__bench.armed = null;
        const t0 = performance.now();
        const sample = { handled: null, frame: null, paint: null, firstFrame: true };
        // The browser lays the changed page out right after this click anyway (to hit-test the pointer);
        // reading a size does it here, so that it counts as handling, not as waiting. (Named for profiles:
        // its self time there is that layout.)
        const layoutAfterDrop = () => {
          void document.body.offsetHeight;
          sample.handled = performance.now() - t0;
        };
        window.addEventListener('click', layoutAfterDrop, { capture: true, once: true });
        const frame = (start) => {
          if (!landed(armed.step)) {
            sample.firstFrame = false;
            return requestAnimationFrame(frame);
          }
          sample.frame = start - t0;
          setTimeout(() => {
            sample.paint = performance.now() - t0;
            // No click (the release left the element it started on): handling ended by the frame at the latest.
            sample.handled ??= Math.max(0, sample.frame);
            w.__bench.samples.push(sample);
          }, 0);
        };
        requestAnimationFrame(frame);
      },
      { capture: true },
    );
  }, CHIPS);
}

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Drags the palette's Flush chip onto the end of broker A's lane, up to just before the release. */
async function dragFlushToEnd(page) {
  await showTimelineEnd(page);
  const palette = page.getByTestId('palette-flush');
  const end = page.locator(END_CELL);
  await end.scrollIntoViewIfNeeded();
  await palette.scrollIntoViewIfNeeded();
  const s = await palette.boundingBox();
  const t = await end.boundingBox();
  await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2 + 12, s.y + s.height / 2 + 12, { steps: 3 });
  await page.mouse.move(t.x + t.width * 0.25, t.y + t.height / 2, { steps: 8 });
  // Let the drag's own renders and paints finish, so the sample times the drop alone.
  await settle(page);
}

/**
 * One timed drop (the i-th: it sets the release's moment in the frame), then its undo; returns the sample.
 * `around`, if given, has start() called before the release and stop() once the new chip is painted.
 */
async function timedDrop(page, i, step, around) {
  await dragFlushToEnd(page);
  const before = await page.evaluate(() => window.__bench.samples.length);
  await page.evaluate((s) => (window.__bench.armed = { step: s }), step);
  // Before the wait below, so that the profiler's start does not delay the release.
  await around?.start();
  // Release at this drop's moment of the frame interval: a fixed spread, the same on every run.
  const phase = ((i * 7) % PHASES) * (FRAME_MS / PHASES);
  await page.evaluate((ms) => new Promise((r) => requestAnimationFrame(() => setTimeout(r, ms))), phase);
  await page.mouse.up();
  await page
    .waitForFunction((n) => window.__bench.samples.length > n, before, { timeout: 10000 })
    .catch(() => {
      throw new Error(`drop ${i}: no chip appeared at step ${step} within 10 s (was the drop refused?)`);
    });
  await around?.stop();
  const sample = await page.evaluate(() => window.__bench.samples.at(-1));
  const added = page.getByTestId(`chip-${step}`);
  if ((await added.getAttribute('data-kind')) !== 'flush') throw new Error(`drop ${i}: no Flush chip at step ${step}`);
  await removeChip(page, step);
  return sample;
}

/** Back to the case's size with the keyboard, and past the Delete's debounced work. */
async function removeChip(page, step) {
  await page.getByTestId(`chip-${step}`).focus();
  await page.keyboard.press('Delete');
  await page.waitForFunction((n) => !document.querySelector(`[data-testid="chip-${n}"]`), step);
  await settle(page);
  await page.waitForTimeout(DEBOUNCE_WAIT_MS);
}

/**
 * Runs one case in a fresh browser context: warm-ups, then the measured drops. Returns their summary, or with
 * `profile` each function's mean self and total time per drop instead (the profiler slows the drops: no
 * timings then).
 */
async function measureCase(browser, base, kase, drops, warmup, profile = false, raw = false) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await openScenario(page, base, kase);
    await installProbe(page);
    const cpu = profile ? await profiler(page) : null;
    const samples = [];
    for (let i = 0; i < warmup + drops; i++) {
      const sample = await timedDrop(page, i, kase.before, i >= warmup ? cpu : null);
      if (i >= warmup) samples.push(sample);
    }
    if (errors.length) throw new Error(`errors in the page: ${errors.join('; ')}`);
    if (profile) return perDrop(cpu.profiles);
    return raw ? samples : summarise(samples);
  } finally {
    await context.close();
  }
}

function summarise(samples) {
  // The frame's work starts once its moment has come and the drop is handled (the main thread is busy till
  // then); between the two, the page waits for the frame.
  const rendering = (s) => s.paint - Math.max(s.frame, s.handled);
  return {
    count: samples.length,
    paint: stats(samples.map((s) => s.paint)),
    handled: stats(samples.map((s) => s.handled)),
    render: stats(samples.map(rendering)),
    work: stats(samples.map((s) => s.handled + rendering(s))),
    waited: stats(samples.map((s) => Math.max(0, s.frame - s.handled))),
    first: samples.filter((s) => s.firstFrame).length,
  };
}

/** "200 events" or, at the limit, "999 events + the drop = 1,000 (the limit)". */
function caseLabel(kase) {
  const after = kase.before + 1;
  const limit = after === MAX_EVENTS ? ' (the limit)' : '';
  return kase.before === kase.size
    ? `${thousands(kase.size)} events (${thousands(after)} after the drop)`
    : `${thousands(kase.size)} events: ${thousands(kase.before)} + the drop = ${thousands(after)}${limit}`;
}

function printCase(kase, r) {
  const { paint, waited, handled, render, work } = r;
  const lessons = kase.lessons ? '; the lessons\' module loaded' : '';
  console.log(`[${caseLabel(kase)}, ${kase.variants.length} variants: ${kase.variants.join(', ')}${lessons}]`);
  console.log(
    `  drop to next paint: median ${fmt(paint.median)} ms, p95 ${fmt(paint.p95)} ms (min ${fmt(paint.min)}, max ${fmt(paint.max)}); ` +
      `budget 16 ms: median ${verdict(paint.median)}, p95 ${verdict(paint.p95)}`,
  );
  console.log(`    = waiting for the next frame (frames start every 16.7 ms): median ${fmt(waited.median)} ms, p95 ${fmt(waited.p95)} ms`);
  console.log(
    `    + handling the drop: median ${fmt(handled.median)} ms, p95 ${fmt(handled.p95)} ms` +
      ` + the frame's rendering: median ${fmt(render.median)} ms, p95 ${fmt(render.p95)} ms`,
  );
  console.log(
    `  app's work per drop (handling + rendering): median ${fmt(work.median)} ms, p95 ${fmt(work.p95)} ms; ` +
      `budget 16 ms (one frame): median ${verdict(work.median)}, p95 ${verdict(work.p95)}; ` +
      `shown by the very next frame: ${r.first} of ${r.count} drops`,
  );
}

/** The figures of every case side by side; the block scripts/bench.sh repeats at the end of `make bench`. */
function printTable(rows) {
  const header = [
    'events',
    'variants',
    "app's work median / p95",
    '= handling + rendering, medians',
    'next paint median / p95',
    'shown by 1st frame',
  ];
  const cells = rows.map(({ kase, r }) => [
    kase.before === kase.size ? thousands(kase.size) : `${thousands(kase.size)} (${thousands(kase.before)}+1)`,
    kase.lessons ? `${kase.variants.length} + lessons` : String(kase.variants.length),
    `${fmt(r.work.median)} / ${fmt(r.work.p95)} ms`,
    `${fmt(r.handled.median)} + ${fmt(r.render.median)} ms`,
    `${fmt(r.paint.median)} / ${fmt(r.paint.p95)} ms`,
    `${r.first} of ${r.count}`,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c].length)));
  const line = (row) => row.map((x, c) => x.padEnd(widths[c])).join('  ').trimEnd();
  console.log('drop-to-paint by scenario size (a Flush dropped at the end; app\'s work = handling + the frame\'s rendering):');
  for (const row of [header, ...cells]) console.log(`  ${line(row)}`);
}

/** How the app's work grows with the event count alone: between the smallest and largest case of equal variants. */
function printGrowth(all) {
  const rows = all.filter(({ kase }) => !kase.lessons);
  for (const variants of new Set(rows.map(({ kase }) => kase.variants.length))) {
    const group = rows.filter(({ kase }) => kase.variants.length === variants);
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => a.kase.before - b.kase.before);
    const [lo, hi] = [sorted[0], sorted.at(-1)];
    const per100 = (part, x) => ((hi.r[part][x] - lo.r[part][x]) / (hi.kase.before - lo.kase.before)) * 100;
    console.log(
      `  growth under ${variants} variants, ${thousands(lo.kase.before)} to ${thousands(hi.kase.before)} events: app's work ` +
        `median x${(hi.r.work.median / lo.r.work.median).toFixed(2)} (${fmt(per100('work', 'median'))} ms per 100 events: ` +
        `handling ${fmt(per100('handled', 'median'))}, rendering ${fmt(per100('render', 'median'))}), ` +
        `p95 x${(hi.r.work.p95 / lo.r.work.p95).toFixed(2)} (${fmt(per100('work', 'p95'))} ms per 100 events)`,
    );
  }
  const limit = all.filter(({ kase }) => kase.before + 1 === MAX_EVENTS);
  for (const { kase, r } of limit) {
    console.log(
      `  goal at the limit (${kase.variants.length} variants${kase.lessons ? ', lessons loaded' : ''}): app's work p95 under one frame (16 ms): ` +
        `${verdict(r.work.p95)} (${fmt(r.work.p95)} ms)`,
    );
  }
}

/**
 * Compare mode (EPOCHLAB_BEFORE_URL, from `make bench BASE=<commit>`): both builds measured by the same harness,
 * alternating in rounds so that the machine's load falls on both alike; each figure with its ratio (after /
 * before: under 1 is faster). A day's absolute figure on a shared machine says little, the ratio does.
 */
async function compareCases(browser, before, after, cases, drops, warmup) {
  const ROUNDS = 3;
  const per = Math.max(5, Math.ceil(drops / ROUNDS));
  const rows = [];
  for (const kase of cases) {
    const samples = { before: [], after: [] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.before.push(...(await measureCase(browser, before, kase, per, warmup, false, true)));
      samples.after.push(...(await measureCase(browser, after, kase, per, warmup, false, true)));
    }
    rows.push({ kase, before: summarise(samples.before), after: summarise(samples.after) });
  }
  console.log(`drop-to-paint, BASE against the working tree (${ROUNDS} alternating rounds of ${per} drops each; ratio = after / before):`);
  for (const { kase, before: b, after: a } of rows) {
    const ratio = (x, y) => (y / x).toFixed(2);
    console.log(
      `  ${caseLabel(kase)}, ${kase.variants.length} variants${kase.lessons ? ', lessons loaded' : ''}: app's work median ` +
        `${fmt(b.work.median)} -> ${fmt(a.work.median)} ms (x${ratio(b.work.median, a.work.median)}), p95 ` +
        `${fmt(b.work.p95)} -> ${fmt(a.work.p95)} ms (x${ratio(b.work.p95, a.work.p95)}); handling median ` +
        `${fmt(b.handled.median)} -> ${fmt(a.handled.median)} ms (x${ratio(b.handled.median, a.handled.median)})`,
    );
  }
}

/** --profile: the top self-time functions per drop in each case, then what grows from the first case to the last. */
async function profileCases(browser, base, cases, drops, warmup) {
  const profiled = [];
  for (const kase of cases) {
    const label = `${thousands(kase.before)}+1 events, ${kase.variants.length} variants`;
    const times = await measureCase(browser, base, kase, drops, warmup, true);
    printTop(label, times);
    profiled.push({ label, times });
  }
  if (profiled.length > 1) printProfileGrowth(profiled[0], profiled.at(-1));
}

async function main() {
  if (process.argv.includes('--scenario')) {
    const count = Number(arg('--scenario', 200)) || 200;
    console.log(JSON.stringify(scenario(Math.min(count, MAX_EVENTS)), null, 2));
    return;
  }
  const base = process.env.EPOCHLAB_BASE_URL;
  if (!base) throw new Error('EPOCHLAB_BASE_URL is not set: run this through scripts/bench.sh (make bench)');
  // 60 drops: a p95 of 30 samples is the second worst of them, too much at the mercy of one slow frame.
  const drops = Number(arg('--drops', 60));
  const warmup = Number(arg('--warmup', 5));
  const cases = parseCases(arg('--cases', DEFAULT_CASES));

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    console.log(
      `drop-to-paint setup: brokers ${BROKERS.join(', ')}; per case ${drops} drops after ${warmup} warm-ups, released at ` +
        `${PHASES} moments spread over the frame interval; headless Chromium ${browser.version()}, ` +
        `${VIEWPORT.width}x${VIEWPORT.height}`,
    );
    if (process.argv.includes('--profile')) return await profileCases(browser, base, cases, drops, warmup);
    const before = process.env.EPOCHLAB_BEFORE_URL;
    if (before) return await compareCases(browser, before, base, cases, drops, warmup);
    const rows = [];
    for (const kase of cases) {
      const r = await measureCase(browser, base, kase, drops, warmup);
      printCase(kase, r);
      rows.push({ kase, r });
    }
    printTable(rows);
    printGrowth(rows);
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
