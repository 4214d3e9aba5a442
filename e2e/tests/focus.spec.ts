import { expect, Page, test } from '@playwright/test';
import { open, watchErrors } from './helpers';

// Issue 24: keyboard focus never falls to the page. A button that turns itself off (a lesson's Next on
// reaching a question, the checker's Run while it runs) keeps the focus: it is aria-disabled, not disabled.

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

test('stepping through lesson 1 with Enter never drops the focus to the page', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('learn-toggle').click();
  await page.getByTestId('lesson-log-end-and-high-watermark').click();
  await page.getByTestId('lesson-next').focus();
  const fell: number[] = [];
  for (let press = 0; press < 14; press++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(100);
    if ((await focusedTestId(page)) === 'BODY') fell.push(press);
    // A question stops the lesson: Next stays focused, and is off.
    if ((await page.getByTestId('lesson-next').getAttribute('aria-disabled')) === 'true') break;
  }
  expect(fell, 'presses after which the focus was on the page').toEqual([]);
  expect(await focusedTestId(page)).toBe('lesson-next');
  // Pressed while off, it says why and does not move on.
  const counter = await page.getByTestId('lesson-counter').textContent();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lesson-counter')).toHaveText(counter!);
  errors.check();
});

test('Run keeps the focus while the checker runs, and after', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('checker').locator('summary').click();
  await page.getByTestId('checker-depth').fill('8');
  await page.getByTestId('checker-run').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('checker-result')).toBeVisible({ timeout: 60_000 });
  expect(await focusedTestId(page)).toBe('checker-run');
  await expect(page.getByTestId('checker-run')).toHaveAttribute('aria-disabled', 'false');
  errors.check();
});
