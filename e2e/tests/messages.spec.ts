import { expect, Page, test } from '@playwright/test';
import { open, shot, watchErrors } from './helpers';

// Issue 15's story: a new user follows KAFKA-6361's fast fail-over in the sequence diagram and finds the
// OffsetsForLeaderEpoch answer where kip-101 and kip-279 part ways (checked with the CLI first:
// `epochlab run F --messages -v kip-101 -v kip-279`: step 10, A answers "offset 2" under kip-101 and
// "epoch 0 ends at 2" under kip-279, then only kip-279's B truncates to 1).

async function preset(page: Page, id: string) {
  await page.getByTestId('preset-picker').selectOption(id);
  await expect(page.getByTestId('preset-picker')).toHaveValue(id);
}

async function openMessages(page: Page) {
  const panel = page.getByTestId('messages-panel');
  await panel.locator('summary').click();
  await expect(page.getByTestId('seq-diagram')).toBeVisible();
}

test.describe('the message-sequence diagram', () => {
  test('marks the differing OffsetsForLeaderEpoch answer, moves the cursor, folds idle fetches', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await preset(page, 'kafka-6361-fast-failover');
    await openMessages(page);
    const first = page.getByTestId('seq-first-difference');
    await expect(first).toContainText('step 10');
    await expect(first).toContainText('kip-101: offset 2');
    await expect(first).toContainText('kip-279: epoch 0 ends at 2');
    const differs = page.locator('[data-testid="seq-differs"][data-step="10"]');
    await expect(differs.first()).toHaveAttribute('aria-label', /kip-101/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, testInfo, 'messages-desktop');
    await page.getByTestId('seq-diagram').screenshot({ path: testInfo.outputPath('seq-desktop.png') });
    errors.check();
  });
});
