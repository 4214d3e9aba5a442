// The model checker as wasm in its Web Worker, in headless Chromium: unique states per second for kafka-2.1
// at the default bounds and at 3 brokers (depth 8; depth 21, the whole space, once), as the page's checker
// panel reports them (the worker's own clock, from its first slice to the verdict). Each case opens the panel,
// waits a second (a person choosing the bounds, while the worker warms up), then runs the search several
// times (nine at the defaults, whose search takes some 35 ms on a clock of whole milliseconds; three at depth
// 8; once at depth 21): printed are the first run and the median, one line per case for scripts/bench.sh to
// set beside the native figures (the median is the "wasm-worker" line). Measured, never asserted.
//
//   EPOCHLAB_BASE_URL=http://127.0.0.1:PORT/epochlab/ node e2e/bench/checker-worker.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

const CASES = [
  { name: 'kafka-2.1 defaults', variant: 'kafka-2.1', brokers: '2', depth: '13', runs: 9 },
  { name: 'kafka-2.1 3 brokers depth 8', variant: 'kafka-2.1', brokers: '3', depth: '8', runs: 3 },
  // The whole 3-broker space (564,974 states), proved in the panel: goal under 10 s on this machine.
  { name: 'kafka-2.1 3 brokers depth 21', variant: 'kafka-2.1', brokers: '3', depth: '21', runs: 1 },
];

/** One search from the panel: [states, seconds, states per second] as the verdict reports them. */
async function search(page, name) {
  const result = page.getByTestId('checker-result');
  await page.evaluate(() => document.querySelector('[data-testid=checker-result]')?.replaceChildren());
  await page.getByTestId('checker-run').click();
  await page.waitForFunction(() => /states\/s\)/.test(document.querySelector('[data-testid=checker-result]')?.textContent ?? ''), null, { timeout: 600_000 });
  const text = (await result.textContent()) ?? '';
  const m = /\((\d+) states, depth (\d+), ([\d.]+) s; (\d+) states\/s\)/.exec(text);
  if (!m) throw new Error(`${name}: unexpected verdict: ${text}`);
  return [m[1], m[3], Number(m[4])];
}

const base = process.env.EPOCHLAB_BASE_URL;
if (!base) throw new Error('EPOCHLAB_BASE_URL is not set (run through scripts/bench.sh)');
const browser = await chromium.launch({ executablePath: process.env.EPOCHLAB_CHROMIUM || CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const c of CASES) {
    const page = await browser.newPage();
    await page.goto(base);
    await page.getByTestId('headline').waitFor();
    await page.getByTestId('checker').locator('summary').click();
    await page.getByTestId('checker-variant').selectOption(c.variant);
    await page.getByTestId('checker-brokers').selectOption(c.brokers);
    await page.getByTestId('checker-depth').fill(c.depth);
    await page.getByTestId('checker-depth').dispatchEvent('change');
    await page.waitForTimeout(1000);
    const runs = [];
    for (let i = 0; i < c.runs; i++) runs.push(await search(page, c.name));
    const [states, seconds, first] = runs[0];
    const median = [...runs].sort((a, b) => a[2] - b[2])[Math.floor(c.runs / 2)];
    console.log(`wasm-worker ${c.name}: ${median[0]} states ${median[1]} s ${median[2]} states/s`);
    if (c.runs > 1) console.log(`  (first of ${c.runs} runs: ${states} states ${seconds} s ${first} states/s)`);
    const verdict = await page.getByTestId('checker-result').textContent();
    if (c.depth === '21') console.log(`  the panel says: ${verdict.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
    await page.close();
  }
} finally {
  await browser.close();
}
