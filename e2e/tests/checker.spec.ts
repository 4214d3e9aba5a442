import { expect, Page, test } from '@playwright/test';
import { chips, open, pasteScenario, shot, watchErrors } from './helpers';

// Issue 13, part 5: the model checker runs in a Web Worker fetched when the panel is first used; what it finds
// opens on the timeline through an undoable action; the shrinker explains every event it keeps.

async function openChecker(page: Page) {
  await page.getByTestId('checker').locator('summary').click();
  await expect(page.getByTestId('checker-panel')).toBeVisible();
}

const result = (page: Page) => page.getByTestId('checker-result');

test('the worker is not downloaded with the page, only when the checker panel is first opened', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await open(page);
  // The page and the other panels' module are loaded; the checker's worker is not.
  await page.getByTestId('messages-panel').locator('summary').click();
  await expect(page.getByTestId('seq-diagram')).toBeVisible();
  expect(fetched.filter((u) => u.includes('checker-worker'))).toEqual([]);
  await openChecker(page);
  // Opening the panel starts the worker (it warms up while the user picks the bounds).
  await expect.poll(() => fetched.filter((u) => u.includes('checker-worker_bg.wasm')).length).toBe(1);
  await page.getByTestId('checker-variant').selectOption('leader-hw-truncation');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('Found the shortest failure under leader-hw-truncation', { timeout: 60_000 });
  expect(fetched.filter((u) => u.includes('checker-worker_bg.wasm')).length).toBe(1);
});

test('hw-truncation: the shortest failure opens on the timeline at its violating step, and Undo brings the scenario back', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  const before = await chips(page).count();
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('hw-truncation');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('Found the shortest failure under hw-truncation', { timeout: 60_000 });
  // By default it answers the learner's question: a lost committed record, not the ISR inconsistency (I4) of
  // a shorter run.
  await expect(result(page)).toContainText('I1 (committed-data loss)');
  const text = (await result(page).textContent()) ?? '';
  const step = Number(/at step (\d+)/.exec(text)![1]);
  const events = Number(/in (\d+) events/.exec(text)![1]);
  await expect(chips(page)).toHaveCount(events);
  expect(step).toBe(events - 1);
  await expect(page.getByTestId(`step-${step}`)).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('headline')).toContainText('hw-truncation');
  await expect(page.getByTestId('notice')).toContainText('The shortest failure under hw-truncation');
  await shot(page, testInfo, 'checker-hw-truncation');
  await page.getByTestId('undo').click();
  await expect(chips(page)).toHaveCount(before);
  errors.check();
});

test('a long run reports progress, leaves the page responsive, and stops on Cancel', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('kafka-2.1');
  await page.getByTestId('checker-brokers').selectOption('3');
  // Large bounds, so that the search is still running when Cancel is pressed on a fast machine: the whole
  // space of 3 brokers at the default records and epochs is seen in a few seconds.
  for (const [field, value] of [['records', '4'], ['epochs', '6'], ['depth', '20']]) {
    await page.getByTestId(`checker-${field}`).fill(value);
    await page.getByTestId(`checker-${field}`).dispatchEvent('change');
  }
  await page.getByTestId('checker-run').click();
  await expect(page.getByTestId('checker-progress')).toContainText('states/s', { timeout: 30_000 });
  // The page answers while the worker searches: the cursor moves a step back.
  const current = page.locator('[aria-current="step"]');
  const at = await current.getAttribute('data-testid');
  await page.getByTestId('step-3').click();
  await expect(page.getByTestId('step-3')).toHaveAttribute('aria-current', 'step');
  expect(at).not.toBe('step-3');
  await expect(page.getByTestId('checker-progress')).toContainText('states/s');
  await shot(page, testInfo, 'checker-progress');
  await page.getByTestId('checker-cancel').click();
  await expect(result(page)).toContainText('Cancelled');
  await expect(page.getByTestId('checker-run')).toBeEnabled();
  errors.check();
});

test('kafka-2.1 reports no failure at the default bounds, every state explored, with the states and the time', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  const before = await chips(page).count();
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('kafka-2.1');
  await expect(page.getByTestId('checker-depth')).toHaveValue('13');
  // The learner's question comes first, and a search that answers it claims no more than it looked for.
  await expect(page.getByTestId('checker-question')).toHaveValue('lose');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText(
    'kafka-2.1: no failure of I1, I2 within 2 brokers, 2 records, epoch 3, depth 13, every reachable state explored',
    { timeout: 60_000 },
  );
  await page.getByTestId('checker-question').selectOption('any');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText(
    'kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 13, every reachable state explored',
    { timeout: 60_000 },
  );
  await expect(result(page)).toContainText(/\d+ states, depth 13, [\d.]+ s/);
  await expect(chips(page)).toHaveCount(before);
  await shot(page, testInfo, 'checker-kafka-2.1');
  // At a shorter depth it cannot say it saw everything, and says so.
  await page.getByTestId('checker-depth').fill('6');
  await page.getByTestId('checker-depth').dispatchEvent('change');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 6, stopped at the depth bound', { timeout: 60_000 });
  await expect(result(page)).toContainText('longer paths were not tried');
  await expect(chips(page)).toHaveCount(before);
  errors.check();
});

test('shrinking a preset leaves only the events its bug needs, each with its reason', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('preset-picker').selectOption('kip101-scenario-2');
  const before = await chips(page).count();
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('hw-truncation');
  await page.getByTestId('checker-shrink').click();
  await expect(page.getByTestId('checker-reasons')).toBeVisible({ timeout: 60_000 });
  const reasons = page.getByTestId('checker-reasons').locator('li');
  const kept = await reasons.count();
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(before);
  await expect(chips(page)).toHaveCount(kept);
  await expect(reasons.first()).toContainText('no longer fails');
  await shot(page, testInfo, 'checker-shrunk');
  await page.getByTestId('undo').click();
  await expect(chips(page)).toHaveCount(before);
  errors.check();
});

test('a scenario shrunk for one variant says which, and which shown variant no longer fails on it', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('preset-picker').selectOption('three-brokers-clean-elections');
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('leader-hw-truncation');
  await page.getByTestId('checker-shrink').click();
  await expect(page.getByTestId('checker-reasons')).toBeVisible({ timeout: 60_000 });
  await expect(result(page)).toContainText('events for leader-hw-truncation, each needed for I1 to fail');
  await expect(result(page)).toContainText(
    'Shrunk for leader-hw-truncation only: hw-truncation fails on the longer scenario but not on this one',
  );
  await expect(page.getByTestId('notice')).toContainText('Shrunk for leader-hw-truncation only');
  // Every removal has its reason, the last one too.
  const reasons = page.getByTestId('checker-reasons').locator('li');
  for (const text of await reasons.allTextContents()) {
    expect(text).toMatch(/no longer fails: .*(instead|rejected)/);
  }
  // The variant it was shrunk for is shown first, with the scenario's own beside it.
  await expect(page.locator('[data-testid^="verdict-"]').first()).toHaveAttribute('data-testid', 'verdict-leader-hw-truncation');
  await expect(page.getByTestId('verdict-hw-truncation')).toBeVisible();
  errors.check();
});

test('the panel fits a phone', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await open(page);
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('leader-hw-truncation');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('Found the shortest failure', { timeout: 60_000 });
  const panel = page.getByTestId('checker-panel');
  const width = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(width).toBeLessThanOrEqual(0);
  await panel.screenshot({ path: testInfo.outputPath('checker-phone.png') });
});

test('under a release in KRaft mode the checker searches that release, and says so', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const kraft = ['name: KRaft 3.6', 'brokers: A B', 'kafka_version: 3.6', 'metadata_mode: kraft', '', 'elect A', ''];
  await pasteScenario(page, kraft.join('\n'), 'KRaft 3.6');
  await openChecker(page);
  await page.getByTestId('checker-variant').selectOption('diverging-epoch');
  await page.getByTestId('checker-depth').fill('6');
  await page.getByTestId('checker-depth').dispatchEvent('change');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('Kafka 3.6 in KRaft mode (diverging-epoch): no failure', { timeout: 60_000 });
  errors.check();
});
