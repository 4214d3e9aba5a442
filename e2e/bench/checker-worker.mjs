// The model checker as wasm in its Web Worker, in headless Chromium: unique states per second for kafka-2.1
// at the default bounds and at 3 brokers (depth 8), as the page's checker panel reports them (the worker's
// own clock, from its first slice to the verdict). Printed one line per case, for scripts/bench.sh to set
// beside the native figures. Measured, never asserted.
//
//   EPOCHLAB_BASE_URL=http://127.0.0.1:PORT/epochlab/ node e2e/bench/checker-worker.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

const CASES = [
  { name: 'kafka-2.1 defaults', variant: 'kafka-2.1', brokers: '2', depth: '13' },
  { name: 'kafka-2.1 3 brokers depth 8', variant: 'kafka-2.1', brokers: '3', depth: '8' },
];

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
    await page.getByTestId('checker-run').click();
    const result = page.getByTestId('checker-result');
    await result.waitFor({ timeout: 600_000 });
    const text = (await result.textContent()) ?? '';
    const m = /\((\d+) states, depth (\d+), ([\d.]+) s; (\d+) states\/s\)/.exec(text);
    if (!m) throw new Error(`${c.name}: unexpected verdict: ${text}`);
    console.log(`wasm-worker ${c.name}: ${m[1]} states ${m[3]} s ${m[4]} states/s`);
    await page.close();
  }
} finally {
  await browser.close();
}
