// Scrubbing and opening at the scenario limit, in headless Chromium: measured, never asserted.
//
//   EPOCHLAB_BASE_URL=http://127.0.0.1:PORT/epochlab/ node e2e/bench/scrub-and-open.mjs [--held N] [--steps N] [--opens N]
//
// Scrubbing: a 1,000-event scenario under four variants, the cursor at the start, then ArrowRight held for
// N repeats (default 150) at 30 a second, the fastest usual key repeat (what the goal is about); and pressed
// N times (default 300) as fast as the page takes keys, a stress beyond any held key. Printed for each: the
// steps the page moved per second and the frames it drew per second meanwhile. Held, it keeps up at 60
// frames per second when it moves at the key's rate and draws at least 60 frames per second.
// Opening: that scenario's link (the compressed one the address holds after a pause) opened in a new page,
// from the navigation's start to the first paint showing its last step, median of N (default 5): the
// Element Timing API's render time for the step's position ("Step 998 of 998"), which the harness marks
// (an `elementtiming` attribute) as soon as it is in the page, before its first paint; when it came into the
// page is printed too. Alternating with the landing page (a preset, no link), whose time is what any opening
// costs here, and with the opened page saved as static HTML (its elements put in the page at once, as the app
// does, but no wasm), the floor: what the browser alone needs to lay out and paint those elements; and with an
// empty page (the step's position alone): what a new tab needs before any page's content counts.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';
import { openScenario, parseCases } from './drop-to-paint.mjs';

const VIEWPORT = { width: 1280, height: 900 };
const GOAL_FPS = 60;
const GOAL_OPEN_MS = 300;
/** The step's position once a page shows its scenario's last step ("Step 998 of 998"), as a RegExp source. */
const ON_LAST_STEP = String.raw`^Step (\d+) of \1\b`;

function arg(name, fallback) {
  const i = process.argv.lastIndexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

/** A held key's repeat interval: 30 a second, the fastest of the usual defaults (X11 25, Windows about 30). */
const REPEAT_MS = 1000 / 30;
/** Held, the page keeps up when it moves at the key's rate (less the timers' jitter: 29.8 measured) ... */
const HELD_GOAL_STEPS = 29;
/** ... and draws 60 frames a second, as counted by animation frames (an idle page counts 59.8 to 60.3). */
const COUNTED_GOAL_FPS = GOAL_FPS - 0.5;

/** ArrowRight held for `steps` repeats (`held`), or pressed `steps` times as fast as the page takes keys. */
async function moveRight(page, steps, held) {
  if (!held) {
    for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
    return;
  }
  // Each down after the first is a repeat (KeyboardEvent.repeat), on the key's own clock, not after the page.
  const start = Date.now();
  for (let i = 0; i < steps; i++) {
    await page.keyboard.down('ArrowRight');
    const wait = start + (i + 1) * REPEAT_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await page.keyboard.up('ArrowRight');
}

/** Moves `steps` steps right from the first step; steps moved and frames drawn per second. */
async function scrub(page, steps, held) {
  const position = page.getByTestId('cursor-position');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Home');
  await position.filter({ hasText: /^Before the first step/ }).waitFor();
  await page.evaluate(() => {
    const w = window;
    w.__frames = 0;
    const count = () => {
      w.__frames++;
      w.__raf = requestAnimationFrame(count);
    };
    w.__raf = requestAnimationFrame(count);
    w.__t0 = performance.now();
  });
  await moveRight(page, steps, held);
  await page.waitForFunction(
    (n) => /^Step (\d+) /.exec(document.querySelector('[data-testid="cursor-position"]')?.textContent ?? '')?.[1] >= n - 1,
    steps,
    { polling: 'raf', timeout: 60000 },
  );
  const { elapsed, frames } = await page.evaluate(() => {
    cancelAnimationFrame(window.__raf);
    return { elapsed: performance.now() - window.__t0, frames: window.__frames };
  });
  return { stepsPerSecond: (steps / elapsed) * 1000, framesPerSecond: (frames / elapsed) * 1000, elapsed };
}

/**
 * The address's compressed link for the open page's scenario on its last step, once the page has written it.
 * The address is written only after a pause, and a scrub may leave none: the address may still hold the
 * opening's link, on the last step already. So it first waits for the scrub's own link (the address unchanged
 * for a second); then End changes it.
 */
async function compressedLink(page) {
  const before = await page.evaluate(
    () =>
      new Promise((resolve) => {
        let [last, since] = [location.hash, performance.now()];
        const poll = () => {
          if (location.hash !== last) [last, since] = [location.hash, performance.now()];
          if (performance.now() - since > 1000) resolve(last);
          else setTimeout(poll, 50);
        };
        poll();
      }),
  );
  await page.keyboard.press('End');
  await page.waitForFunction((b) => location.hash !== b && location.hash.includes('s='), before, { timeout: 20000 });
  return page.evaluate(() => location.hash);
}

/**
 * In the page before it loads: marks the step's position for the Element Timing API once it shows the last
 * step, and keeps when it came into the page and when it was first painted.
 */
function timeOpening(onLastStep) {
  const w = window;
  w.__opened = { inserted: null, painted: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.identifier === 'opened') w.__opened.painted = e.renderTime;
  }).observe({ type: 'element', buffered: true });
  new MutationObserver((_, observer) => {
    const position = document.querySelector('[data-testid="cursor-position"]');
    if (!new RegExp(onLastStep).test(position?.textContent ?? '')) return;
    position.setAttribute('elementtiming', 'opened');
    w.__opened.inserted = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * Milliseconds from the navigation's start to the first paint showing a scenario on its last step, and to its
 * coming into the page. With `html`, the page at `url` is that text instead of what the server has.
 */
async function openOnce(browser, url, html = null) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    if (html) await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.addInitScript(timeOpening, ON_LAST_STEP);
    await page.goto(url);
    const opened = await page.waitForFunction(() => window.__opened.painted && window.__opened, null, {
      timeout: 30000,
    });
    return await opened.jsonValue();
  } finally {
    await context.close();
  }
}

/**
 * A page whose body's `content` an inline script puts in at once, after the stylesheets in `head` have loaded
 * (a script waits for them), as the app inserts its elements: `html` and `body` are the two elements' attributes.
 */
function pageFromTemplate({ html, head, body, content }) {
  const show = "document.body.append(document.getElementById('static-copy').content)";
  return (
    `<!DOCTYPE html><html ${html}>${head}<body ${body}><template id="static-copy">${content}</template>` +
    `<script>${show}</script></body></html>`
  );
}

/**
 * The page at `url` once it shows its last step, as static HTML without its scripts: the same elements and
 * styles, none of the work that made them, its elements put in at once as the app does (`pageFromTemplate`).
 * How soon the browser paints that is the floor of any opening.
 */
async function staticCopy(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      (onLastStep) =>
        new RegExp(onLastStep).test(document.querySelector('[data-testid="cursor-position"]')?.textContent ?? ''),
      ON_LAST_STEP,
      { timeout: 30000 },
    );
    const parts = await page.evaluate(() => {
      const quoted = (value) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
      const attributes = (el) => [...el.attributes].map((a) => `${a.name}="${quoted(a.value)}"`).join(' ');
      const head = document.head.cloneNode(true);
      head.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"]').forEach((e) => e.remove());
      const body = document.body.cloneNode(true);
      body.querySelectorAll('script').forEach((e) => e.remove());
      return {
        html: attributes(document.documentElement),
        head: head.outerHTML,
        body: attributes(document.body),
        content: body.innerHTML,
      };
    });
    return pageFromTemplate(parts);
  } finally {
    await context.close();
  }
}

/**
 * An empty page but for the step's position, put in by a script as the static copy's elements are: what a new
 * tab needs here before any page's content counts.
 */
const EMPTY_PAGE = pageFromTemplate({
  html: 'lang="en"',
  head: '<head><title>Empty</title></head>',
  body: '',
  content: '<p data-testid="cursor-position">Step 1 of 1</p>',
});

const fmt = (x) => x.toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `median ${fmt(median(xs))} ms (min ${fmt(Math.min(...xs))}, max ${fmt(Math.max(...xs))})`;

async function main() {
  const base = process.env.EPOCHLAB_BASE_URL;
  if (!base) throw new Error('EPOCHLAB_BASE_URL is not set: run this through scripts/bench.sh (make bench)');
  const [kase] = parseCases('1000x4');
  const steps = Math.min(arg('--steps', 300), kase.before - 1);
  const heldSteps = Math.min(arg('--held', 150), kase.before - 1);
  const opens = arg('--opens', 5);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await openScenario(page, base, kase);
    const h = await scrub(page, heldSteps, true);
    const kept = h.stepsPerSecond >= HELD_GOAL_STEPS && h.framesPerSecond >= COUNTED_GOAL_FPS;
    const keeps = kept ? 'keeps up' : 'does NOT keep up';
    console.log(
      `scrubbing with ArrowRight held (${heldSteps} repeats at 30 a second) across ${kase.before} events under 4 ` +
        `variants: ${fmt(h.stepsPerSecond)} steps/s, ${fmt(h.framesPerSecond)} frames/s; goal 60 frames per ` +
        `second: ${keeps}`,
    );
    const s = await scrub(page, steps, false);
    console.log(
      `scrubbing as fast as the page takes keys (${steps} presses, a stress beyond any held key): ` +
        `${fmt(s.stepsPerSecond)} steps/s, ${fmt(s.framesPerSecond)} frames/s (${fmt(s.elapsed)} ms)`,
    );
    const hash = await compressedLink(page);
    await context.close();
    const copy = await staticCopy(browser, `${base}${hash}`);
    const times = [];
    const landing = [];
    const floor = [];
    const empty = [];
    // Alternating, so that all four see the machine in the same state.
    for (let i = 0; i < opens; i++) {
      times.push(await openOnce(browser, `${base}${hash}`));
      landing.push(await openOnce(browser, base));
      floor.push(await openOnce(browser, `${base}static-copy.html`, copy));
      empty.push(await openOnce(browser, `${base}empty-page.html`, EMPTY_PAGE));
    }
    const painted = (ts) => ts.map((t) => t.painted);
    const m = median(painted(times));
    console.log(
      `opening a ${kase.before}-event link (${hash.length} characters) to the first paint showing it, ${opens} ` +
        `times: ${range(painted(times))}, in the page at ${fmt(median(times.map((t) => t.inserted)))} ms; goal ` +
        `under ${GOAL_OPEN_MS} ms: ${m < GOAL_OPEN_MS ? 'under' : 'OVER'}`,
    );
    // What any opening costs on this machine: the download, the wasm's compilation, the first layout and paint.
    console.log(`for reference, the landing page (a preset, no link) to its first paint: ${range(painted(landing))}`);
    console.log(
      `for reference, the opened page saved as static HTML (its elements and styles, put in the page at once ` +
        `as the app does, no wasm) to its first paint: ${range(painted(floor))}: the floor, what the browser ` +
        `alone needs`,
    );
    console.log(`for reference, an empty page (the step's position alone), the same way: ${range(painted(empty))}`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`scrub-and-open: ${e.message}`);
  process.exit(1);
});
