import { expect, Page, test } from '@playwright/test';
import { chips, open, shot, watchErrors } from './helpers';

// Issue 13, part 5: a share link can carry a bounded-proof stamp ("kafka-2.1: no failure within …: N
// states") that the page re-checks on request; a damaged stamp gets a notice and the link still opens.

const result = (page: Page) => page.getByTestId('checker-result');

/** Runs kafka-2.1 at depth 6, adds the result to the share link, and returns that link. */
async function stampedLink(page: Page): Promise<string> {
  await open(page);
  await page.getByTestId('checker').locator('summary').click();
  await page.getByTestId('checker-variant').selectOption('kafka-2.1');
  await page.getByTestId('checker-question').selectOption('any');
  await page.getByTestId('checker-depth').fill('6');
  await page.getByTestId('checker-depth').dispatchEvent('change');
  await page.getByTestId('checker-run').click();
  await expect(result(page)).toContainText('kafka-2.1: no failure within 2 brokers, 2 records, epoch 3, depth 6', { timeout: 60_000 });
  await page.getByTestId('checker-add-stamp').click();
  await expect(result(page)).toContainText('The share link now carries this result');
  await expect(page.getByTestId('checker-add-stamp')).toHaveCount(0);
  expect(page.url()).toContain('proof=1~kafka-2.1~default~2~2~3~6~');
  // The share panel's link carries it too.
  await page.getByTestId('share-panel').locator('summary').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/&proof=1~kafka-2\.1~/);
  return page.url();
}

test('a link with a stamp shows the claim, and Re-check confirms it', async ({ page, context }, testInfo) => {
  const url = await stampedLink(page);
  const events = await chips(page).count();
  const other = await context.newPage();
  const errors = watchErrors(other);
  await other.goto(url);
  await expect(other.getByTestId('headline')).toBeVisible();
  // The checker panel opens by itself to show the claim.
  const stamp = other.getByTestId('checker-stamp');
  await expect(stamp).toContainText(/This link carries a bounded proof: kafka-2\.1: no failure within 2 brokers, 2 records, epoch 3, depth 6: \d+ states/);
  await expect(chips(other)).toHaveCount(events);
  await other.getByTestId('checker-recheck').click();
  await expect(result(other)).toContainText("Re-check confirms the link's stamp", { timeout: 60_000 });
  await shot(other, testInfo, 'proof-stamp-confirmed');
  await other.getByTestId('checker-panel').screenshot({ path: testInfo.outputPath('proof-stamp-panel.png') });
  errors.check();
});

test('a damaged stamp gets a notice and the rest of the link opens', async ({ page, context }, testInfo) => {
  const url = await stampedLink(page);
  const events = await chips(page).count();
  const damaged = url.replace(/proof=[^&]*/, (p) => p.replace(/~(\d+)~(exhausted|depth)~/, '~lots~$2~'));
  expect(damaged).not.toBe(url);
  const other = await context.newPage();
  const errors = watchErrors(other);
  await other.goto(damaged);
  await expect(other.getByTestId('headline')).toBeVisible();
  await expect(other.getByTestId('checker-stamp')).toContainText(
    'This link\'s bounded-proof stamp could not be read (its state count "lots" is not a number); the rest of the link opened as usual.'
  );
  await expect(other.getByTestId('checker-recheck')).toHaveCount(0);
  await expect(chips(other)).toHaveCount(events);
  await shot(other, testInfo, 'proof-stamp-damaged');
  await other.setViewportSize({ width: 375, height: 800 });
  await other.getByTestId('checker-stamp').scrollIntoViewIfNeeded();
  await other.screenshot({ path: testInfo.outputPath('proof-stamp-damaged-phone.png') });
  errors.check();
});

test('a re-check under other cluster settings says the stamp is not confirmed', async ({ page, context }) => {
  const url = await stampedLink(page);
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByTestId('checker-stamp')).toContainText('This link carries a bounded proof');
  // Change a cluster setting, then re-check: the stamp was made under the old settings.
  await other.locator('summary', { hasText: 'Configuration' }).click();
  await other.getByTestId('config-unclean').selectOption('on');
  await other.getByTestId('checker-recheck').click();
  await expect(result(other)).toContainText("Re-check does not confirm the link's stamp: the scenario's cluster settings are not the ones the stamp was made with", { timeout: 60_000 });
});

test('a stamp cut down to one invariant says what it leaves out, and Re-check shows its own search in the form', async ({ page, context }) => {
  const url = await stampedLink(page);
  const cut = url.replace('~I1.I2.I3.I4.I5.I7.L1~', '~I7~');
  expect(cut).not.toBe(url);
  const other = await context.newPage();
  const errors = watchErrors(other);
  await other.goto(cut);
  const stamp = other.getByTestId('checker-stamp');
  await expect(stamp).toContainText('kafka-2.1: no failure of I7 within 2 brokers, 2 records, epoch 3, depth 6');
  await expect(stamp).toContainText('It covers only what it names: I1, I2, I3, I4, I5, L1 were not looked for.');
  await other.getByTestId('checker-recheck').click();
  // The form shows the search re-checked: I7 alone, not the seven ticked before.
  await expect(other.getByTestId('checker-question')).toHaveValue('any');
  await expect(other.getByTestId('checker-invariant-I7')).toBeChecked();
  await expect(other.getByTestId('checker-invariant-I1')).not.toBeChecked();
  await expect(other.getByTestId('checker-depth')).toHaveValue('6');
  // A search's states are told apart by what its invariants read (checker::canon::forget_unwatched), so a
  // search for I7 alone counts other states than the search of all seven the stamp was cut from: caught.
  await expect(result(other)).toContainText("Re-check does not confirm the link's stamp: the re-check saw", { timeout: 60_000 });
  await expect(result(other)).toContainText('kafka-2.1: no failure of I7 within 2 brokers, 2 records, epoch 3, depth 6');
  errors.check();
});
