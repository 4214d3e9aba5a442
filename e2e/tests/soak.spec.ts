import { expect, Page, test } from '@playwright/test';
import { open, watchErrors } from './helpers';

// Issue 24: nothing accumulates over a long session. Opening and closing every panel, entering and leaving
// a lesson and editing the text, many times over, leaves the page's event listeners where they were.

const PANELS = ['config-panel', 'messages-panel', 'checker', 'my-scenarios', 'share-panel'];

/** The page's live event listeners, after a garbage collection (detached nodes' listeners go with them). */
async function listeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSEventListeners')!.value;
}

/** Each panel opened and closed, a lesson entered, stepped and left, the text panel opened, typed in and closed. */
async function roundOfEverything(page: Page) {
  for (const panel of PANELS) {
    const details = page.getByTestId(panel);
    const isOpen = () => details.evaluate((el) => (el as HTMLDetailsElement).open);
    await details.locator('summary').click();
    await expect.poll(isOpen).toBe(true);
    await details.locator('summary').click();
    await expect.poll(isOpen).toBe(false);
  }
  const lesson = page.getByTestId('lesson-committed-record-lost');
  if (!(await lesson.isVisible())) await page.getByTestId('learn-toggle').click();
  await lesson.click();
  // Where the last round left it: from the start again.
  await page.getByTestId('lesson-restart').click();
  await expect(page.getByTestId('lesson-counter')).toHaveText(/^Step 1 of/);
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-counter')).toHaveText(/^Step 2 of/);
  await page.getByTestId('lesson-leave').click();
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await page.getByTestId('text-toggle').click();
  const text = page.getByTestId('text-input');
  await expect(text).toHaveValue(/brokers:/);
  await text.press('End');
  await text.pressSequentially('\n# a note');
  await page.getByTestId('text-toggle').click();
  await expect(page.locator('#text-panel')).toBeHidden();
}

/** The page's wasm memory in bytes (Trunk's loader hands its exports to the TrunkApplicationStarted event; in
 * release builds binaryen has renamed the export `memory`, scripts/minify-glue.sh, so it is found by its type). */
const wasmMemory = (page: Page) => page.evaluate(() => (window as any).epochlabMemory?.buffer.byteLength as number);

test('opening and closing every panel and lesson many times leaves the listeners where they were', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.addInitScript(() => addEventListener('TrunkApplicationStarted', (e: any) =>
    ((window as any).epochlabMemory = Object.values(e.detail.wasm).find((v) => v instanceof WebAssembly.Memory))));
  await open(page);
  // Two rounds load what loads once (the lessons' module, the checker's worker started and ended, what a
  // loaded machine draws late: one round left 86 listeners and the next 92, where they then stayed).
  await roundOfEverything(page);
  await roundOfEverything(page);
  const before = await listeners(page);
  const memoryBefore = await wasmMemory(page);
  for (let round = 0; round < 6; round++) await roundOfEverything(page);
  const after = await listeners(page);
  const memoryAfter = await wasmMemory(page);
  console.log(`event listeners: ${before} after two rounds, ${after} after six more; wasm memory ${memoryBefore} -> ${memoryAfter} bytes`);
  // A few may come and go with what is drawn at the moment; one per round or more is a leak.
  expect(after - before).toBeLessThan(6);
  // Wasm memory never shrinks once grown: six rounds that each kept what they made would show here.
  expect(memoryAfter - memoryBefore).toBeLessThanOrEqual(1024 * 1024);
  errors.check();
});
