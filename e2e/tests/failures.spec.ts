import { expect, test } from '@playwright/test';
import { chips, open, watchErrors } from './helpers';

// Issue 24: what cannot be had is said, with a way to try again; nothing waits forever and nothing is blank.

test('a lessons module that cannot be fetched is said in the panels, and Try again loads it', async ({ page, context }) => {
  await open(page);
  // Only from now on: the page itself loaded.
  await context.route('**/epochlab-lessons.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByTestId('config-panel').locator('summary').click();
  const failed = page.getByTestId('config-panel').getByTestId('lessons-failed');
  await expect(failed).toContainText('The lessons and panels could not be loaded (its script could not be fetched)');
  await expect(page.getByTestId('config-panel').getByText('Loading this panel…')).toHaveCount(0);
  // The Learn button, with no panel open, says so where the lessons would be.
  await page.getByTestId('config-panel').locator('summary').click();
  await page.getByTestId('learn-toggle').click();
  await expect(page.getByTestId('lessons-failed').filter({ visible: true })).toHaveCount(1);
  await context.unroute('**/epochlab-lessons.js');
  await page.getByTestId('lessons-retry').filter({ visible: true }).click();
  await expect(page.getByTestId('lesson-committed-record-lost')).toBeVisible();
  await expect(page.getByTestId('lessons-failed')).toHaveCount(0);
  await expect(page.getByTestId('lessons-retry')).toHaveCount(0);
  await page.getByTestId('config-panel').locator('summary').click();
  await expect(page.getByTestId('config-panel').getByText('Loading this panel…')).toBeHidden();
});

test('a lessons module whose wasm fails is started again on Try again, its script not run twice', async ({ page, context }) => {
  // The failed fetch is the browser's own console error; a script run twice would throw a page error.
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await open(page);
  await context.route('**/epochlab-lessons_bg.wasm', (route) => route.fulfill({ status: 500, body: 'down' }));
  await page.getByTestId('share-panel').locator('summary').click();
  const failed = page.getByTestId('share-panel').getByTestId('lessons-failed');
  await expect(failed).toContainText('(its wasm could not be fetched or started)');
  await context.unroute('**/epochlab-lessons_bg.wasm');
  await failed.getByTestId('lessons-retry').click();
  await expect(page.getByTestId('share-link')).toBeVisible();
  await expect(page.getByTestId('lessons-failed')).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

test('a checker whose wasm cannot be fetched says so, and Run starts a new one', async ({ page, context }) => {
  await context.route('**/checker-worker_bg.wasm', (route) => route.fulfill({ status: 500, body: 'down' }));
  await open(page);
  await page.getByTestId('checker').locator('summary').click();
  await page.getByTestId('checker-depth').fill('4');
  await page.getByTestId('checker-run').click();
  const result = page.getByTestId('checker-result');
  await expect(result).toContainText('The checker could not start or stopped', { timeout: 30_000 });
  await expect(result).toContainText('Press Run or Shrink to try again');
  await context.unroute('**/checker-worker_bg.wasm');
  await page.getByTestId('checker-run').click();
  await expect(result).toContainText('within 2 brokers', { timeout: 60_000 });
});

test('under a Content-Security-Policy that forbids WebAssembly the page explains itself instead of going blank', async ({ page, context }) => {
  test.setTimeout(45_000);
  await context.route('**/epochlab/', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers(), 'content-security-policy': "script-src 'self'" };
    await route.fulfill({ response, headers });
  });
  await page.goto('./');
  await expect(page.getByTestId('boot')).toContainText('Loading Epochlab');
  // After a few seconds with no page, the reason shows (by CSS alone: no script runs).
  await expect(page.getByRole('alert')).toContainText("script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'", { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Epochlab has not started' })).toBeVisible();
});

test("under a policy without 'unsafe-eval' the page starts, and the lessons say why they cannot", async ({ page, context }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await context.route('**/epochlab/', async (route) => {
    const response = await route.fetch();
    const csp = "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'";
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
  await page.goto('./');
  await expect(page.getByTestId('headline')).toBeVisible();
  await page.getByTestId('learn-toggle').click();
  await expect(page.getByTestId('lessons-failed').filter({ visible: true })).toContainText("this page's Content-Security-Policy forbids 'unsafe-eval'");
  expect(pageErrors).toEqual([]);
});

test('the boot message leaves once the page starts', async ({ page }) => {
  await open(page);
  await expect(page.getByTestId('boot')).toHaveCount(0);
  await expect(chips(page).first()).toBeVisible();
});

test('a WebAssembly trap (a panic in the release build) shows the internal-error banner once, and Reset and reload starts the page again', async ({ page }) => {
  await open(page);
  // A marker where the working copy is kept: Reset must take it away.
  await page.evaluate(() => localStorage.setItem('epochlab.working.v1', 'marker'));
  // A panic in the release build is the wasm instruction `unreachable` (scripts/release-build.sh), thrown
  // uncaught to the page: the same here, from a one-function module, twice.
  await page.evaluate(() => {
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 5, 1, 3, 0, 0, 11]);
    const trap = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f as () => void;
    setTimeout(trap);
    setTimeout(trap);
  });
  const fatal = page.getByTestId('fatal');
  await expect(fatal).toHaveCount(1);
  await expect(fatal).toHaveAttribute('role', 'alert');
  await expect(fatal).toContainText('Epochlab hit an internal error. (unreachable) Your last change may not have been kept.');
  // The page stays readable under the banner.
  await expect(chips(page).first()).toBeVisible();
  await fatal.getByRole('button', { name: 'Reset and reload' }).click();
  await expect(page.getByTestId('fatal')).toHaveCount(0);
  await expect(page.getByTestId('headline')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('epochlab.working.v1'))).not.toBe('marker');
});

test('a checker bound out of range is refused with the range it takes, and no search runs', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('checker').locator('summary').click();
  const result = page.getByTestId('checker-result');
  for (const [value, said] of [['0', 'records 0 is out of range (1 to 6)'], ['1000000000', 'records 1000000000 is out of range (1 to 6)'], ['-1', 'records is not a whole number']]) {
    await page.getByTestId('checker-records').fill(value);
    await page.getByTestId('checker-run').click();
    await expect(result).toHaveText(`Could not run: ${said}.`);
    await expect(page.getByTestId('checker-progress')).toHaveCount(0);
  }
  errors.check();
});
