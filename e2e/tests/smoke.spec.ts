import { expect, test } from '@playwright/test';

test('the landing page shows every broker of the default scenario, without errors', async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));

  // A relative URL keeps the public-url path prefix (the build under test lives at /epochlab/).
  await page.goto('./');

  await expect(page.getByRole('heading', { name: 'Epochlab' })).toBeVisible();
  await expect(page.getByTestId('scenario-name')).toContainText('KIP-101');
  for (const name of ['A', 'B']) {
    const broker = page.getByTestId(`broker-${name}`);
    await expect(broker).toBeVisible();
    await expect(broker.locator('.broker-name')).toHaveText(name);
    // Each broker shows its log (records as label@epoch) or "(empty)".
    await expect(page.getByTestId(`log-${name}`)).toHaveText(/^(\(empty\)|m\d+@\d+( m\d+@\d+)*)$/);
  }
  await expect(page.getByTestId('log-A')).toContainText('m1@');

  await page.screenshot({ path: testInfo.outputPath('smoke.png'), fullPage: true });
  expect(errors, 'console errors or page errors').toEqual([]);
});
