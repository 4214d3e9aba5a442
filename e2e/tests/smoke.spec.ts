import { expect, test } from '@playwright/test';
import { open, shot, watchErrors } from './helpers';

test('the page loads the default scenario and shows every broker, without errors', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  // A relative URL keeps the public-url path prefix (the build under test lives at /epochlab/).
  await open(page);
  await expect(page.getByRole('heading', { name: 'Epochlab' })).toBeVisible();
  await expect(page.getByTestId('headline')).toContainText('KIP-101 scenario 1');
  for (const variant of ['hw-truncation', 'kip-279']) {
    for (const name of ['A', 'B']) {
      await expect(page.getByTestId(`broker-${variant}-${name}`)).toBeVisible();
    }
  }
  await expect(page.getByTestId('cell-kip-279-A-0')).toContainText('m1');
  await shot(page, testInfo, 'smoke');
  errors.check();
});
