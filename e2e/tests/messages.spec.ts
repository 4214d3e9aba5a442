import { expect, Page, test } from '@playwright/test';
import { cell, mouseDrag, open, pasteScenario, PHONE, shot, watchErrors } from './helpers';

// Issue 15's story, as a new user would try it.
//
// 1. The sequence diagram: KAFKA-6361's fast fail-over (the preset where kip-101 and kip-279 part ways on
//    the OffsetsForLeaderEpoch answer). Checked with the CLI first (`epochlab run F --messages -v kip-101
//    -v kip-279`): at step 10 A answers "offset 2" under kip-101 and "epoch 0 ends at 2" under kip-279,
//    only kip-279's B then truncates to 1, and two idle fetches at 3 end the settle under both.
// 2. The Kafka release: `epochlab bisect F` says "fails I3, I4 from 0.11.0 to 1.1; holds from 2.0: KIP-279".
// 3. The consumer: in KIP-101 scenario 1 (the landing page) the consumer reads m1, m2 from B at step 6;
//    under hw-truncation m2 is gone from the leader from step 9 (I5, a phantom read); under kip-279 it stays.

async function preset(page: Page, id: string) {
  await page.getByTestId('preset-picker').selectOption(id);
  await expect(page.getByTestId('preset-picker')).toHaveValue(id);
}

async function openPanel(page: Page, summary: string) {
  await page.locator('summary', { hasText: summary }).click();
}

async function openMessages(page: Page) {
  await page.getByTestId('messages-panel').locator('summary').click();
  await expect(page.getByTestId('seq-diagram')).toBeVisible();
}

const diagramShot = async (page: Page, path: string) => page.getByTestId('seq-diagram').screenshot({ path });

test.describe('the message-sequence diagram', () => {
  test('is closed at first and marks where kip-101 and kip-279 part ways', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    // The first paint is unchanged: the panel is closed and draws nothing.
    await expect(page.getByTestId('messages-panel')).not.toHaveAttribute('open', '');
    await expect(page.getByTestId('seq-diagram')).toHaveCount(0);
    await preset(page, 'kafka-6361-fast-failover');
    await openMessages(page);
    const first = page.getByTestId('seq-first-difference');
    await expect(first).toContainText('first differ at step 10');
    await expect(first).toContainText('kip-101: offset 2');
    await expect(first).toContainText('kip-279: epoch 0 ends at 2');
    // The differing answer is one marked line per variant, each saying so in words.
    const differs = page.locator('[data-testid="seq-differs"][data-step="10"]');
    await expect(differs.filter({ hasText: 'kip-101: offset 2' })).toHaveCount(1);
    await expect(differs.filter({ hasText: 'kip-279: epoch 0 ends at 2' })).toHaveAttribute('aria-label', /^kip-279: epoch 0 ends at 2 \(the variants differ here\); step \d+, A → B: epoch 0 ends at 2$/);
    // Only kip-279's B truncates.
    await expect(differs.filter({ hasText: 'kip-279: truncate to 1 (r2)' })).toHaveCount(1);
    await first.getByRole('button', { name: 'Show step 10' }).click();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 10 of 10/);
    await diagramShot(page, testInfo.outputPath('diagram-desktop.png'));
    // The picture of it, from the export panel: the same lines, with its own colours and lane names.
    await page.locator('summary', { hasText: 'Share, embed, export and import' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-messages').click()]);
    expect(download.suggestedFilename()).toBe('kafka-6361-fast-leader-fail-over.messages.svg');
    const svg = require('fs').readFileSync(await download.path(), 'utf8');
    expect(svg).toContain('kip-279: epoch 0 ends at 2');
    expect(svg).toContain('>controller</text>');
    // Or under the view, in the same picture, which still opens the scenario when dropped on the page.
    await page.getByTestId('export-with-messages').check();
    const [both] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
    const picture = require('fs').readFileSync(await both.path(), 'utf8');
    expect(picture).toContain('<metadata id="epochlab-scenario">');
    expect(picture).toContain('kip-279: epoch 0 ends at 2');
    // The diagram is a picture nested under the variants, above the footer.
    expect(picture.match(/<svg/g)!.length).toBe(2);
    expect(picture.indexOf('<svg', 1)).toBeGreaterThan(picture.indexOf('>kip-279 <tspan'));
    expect(picture.indexOf('<svg', 1)).toBeLessThan(picture.indexOf('Made with Epochlab'));
    errors.check();
  });

  test('a click on an arrow moves the cursor; later steps fade; a run of idle fetches opens and folds', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await preset(page, 'kafka-6361-fast-failover');
    await openMessages(page);
    const produce = page.locator('[data-testid="seq-line"][data-step="4"]', { hasText: 'Produce r1' });
    await produce.click();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 4 of 10/);
    await expect(produce).toHaveClass(/seq__line--current/);
    await expect(page.locator('[data-testid="seq-line"][data-step="8"]').first()).toHaveClass(/seq__line--later/);
    // Keyboard: Enter on a focused line does the same.
    const elect = page.locator('[data-testid="seq-line"][data-step="7"]').first();
    await elect.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 7 of 10/);
    // The drawing is redrawn, and the line keeps the focus.
    await expect(page.locator('.seq__line:focus')).toHaveAttribute('data-step', '7');
    // The two idle fetches at the end of the settle are one folded line.
    const run = page.getByTestId('seq-run');
    await expect(run).toHaveCount(1);
    await expect(run).toContainText('Fetch ×2, no new records (step 10, HW 3)');
    await expect(run).toHaveAttribute('data-open', 'false');
    const idle = page.locator('[data-testid="seq-line"]', { hasText: 'Fetch at 3' });
    await expect(idle).toHaveCount(0);
    await run.click();
    await expect(page.getByTestId('seq-run')).toHaveAttribute('data-open', 'true');
    await expect(page.locator('[data-testid="seq-line"][data-step="10"]').filter({ hasText: 'Fetch at 3' }).first()).toHaveAttribute('aria-label', /B → A: Fetch at 3/);
    await expect(idle).toHaveCount(2);
    await page.getByTestId('seq-run').click();
    await expect(idle).toHaveCount(0);
    errors.check();
  });

  test('the lane headers stay visible while the diagram scrolls', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await open(page);
    await preset(page, 'kip101-scenario-2');
    await openMessages(page);
    const scroller = page.locator('.seq__scroll');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const head = await page.locator('.seq__head').boundingBox();
    const box = await scroller.boundingBox();
    expect(Math.abs(head!.y - box!.y)).toBeLessThan(3);
    await expect(page.locator('.seq__head')).toContainText('controller');
  });
});

// 200 events on three brokers (brokers A B C, variant kip-279: `elect A`, then `produce` followed by three
// rounds of `fetch B` / `fetch C`, repeated, a `consume` now and then), made with `epochlab link FILE
// -v kip-101 -v kip-279 --step 199`: under kip-101 and kip-279, at the last step.
const TWO_HUNDRED = '#s=1AT_Ny7sJACEQRVHfbLjZwuZagiWorThgpOC3RcsSOzCUG9zoEGjiqyPJ0KLP7CV3jrWIBwYWjjDxC6V353uvFAtf0CcQ';

test('at 200 events the idle fetches fold, and the lines stay legible', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`./${TWO_HUNDRED}`);
  await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 199 of 199/);
  await openMessages(page);
  // The diagram opens scrolled to the cursor's step (the last), below the sticky lane headers.
  const current = page.locator('.seq__line--current').first();
  await expect(current).toHaveCount(1);
  await page.locator('.seq__scroll').scrollIntoViewIfNeeded();
  const [line, box] = [await current.boundingBox(), await page.locator('.seq__scroll').boundingBox()];
  expect(line!.y).toBeGreaterThan(box!.y + 20);
  expect(line!.y + line!.height).toBeLessThanOrEqual(box!.y + box!.height + 1);
  const runs = page.getByTestId('seq-run');
  expect(await runs.count()).toBeGreaterThan(20);
  const lines = await page.locator('[data-testid="seq-line"]').count();
  await runs.first().click();
  await expect(runs.first()).toHaveAttribute('data-open', 'true');
  expect(await page.locator('[data-testid="seq-line"]').count()).toBeGreaterThan(lines);
  await page.locator('.seq__scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  await page.getByTestId('seq-diagram').screenshot({ path: testInfo.outputPath('diagram-200.png') });
  errors.check();
});

test.describe('the Kafka release', () => {
  test('choosing a release runs its variant, says what changed, and lives in the link', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    await preset(page, 'kafka-6361-fast-failover');
    await openPanel(page, 'Configuration: variants, brokers, cluster settings');
    const summary = page.getByTestId('bisect-summary');
    await expect(summary).toContainText('holds from 2.0.0: KIP-279');
    await expect(summary).toContainText('fails I3, I4 from 0.11.0 to 1.1');
    await expect(page.getByTestId('bisect-change').filter({ hasText: 'KIP-279' })).toHaveCount(1);
    await page.getByTestId('kafka-release').selectOption('1.1');
    await expect(page.getByTestId('kafka-release-about')).toContainText('Kafka 1.1 (the 1.0–1.1 line) runs kip-101');
    await expect(page.getByTestId('variant-toggle-kip-101')).toBeChecked();
    await expect(page.locator('.variants__item').first().locator('article')).toHaveAttribute('data-testid', 'variant-kip-101');
    // A cell of the strip chooses its release: the first variant follows.
    await page.getByTestId('bisect-2.0.0').click();
    await expect(page.getByTestId('kafka-release')).toHaveValue('2.0.0');
    await expect(page.locator('.variants__item').first().locator('article')).toHaveAttribute('data-testid', 'variant-kip-279');
    await expect(page.getByTestId('kafka-release-about')).toContainText('KIP-279');
    await page.getByTestId('bisect').screenshot({ path: testInfo.outputPath('bisect-desktop.png') });
    // The address holds the release: a reload opens it again.
    await page.reload();
    await expect(page.getByTestId('headline')).toBeVisible();
    await openPanel(page, 'Configuration: variants, brokers, cluster settings');
    await expect(page.getByTestId('kafka-release')).toHaveValue('2.0.0');
    // A flag of one's own is no longer that release.
    await page.getByTestId('flag-kip-320').check();
    await expect(page.getByTestId('kafka-release')).toHaveValue('');
    errors.check();
  });

  test("a release's column is titled with the release and goes when the release does", async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    const columns = page.locator('.variants__item article');
    await expect(columns).toHaveCount(2);
    await openPanel(page, 'Configuration: variants, brokers, cluster settings');
    // 2.0.0 and 2.0 say what tells them apart.
    await expect(page.getByTestId('kafka-release').locator('option[value="2.0.0"]')).toContainText('KIP-279 alone');
    await expect(page.getByTestId('kafka-release').locator('option[value="2.0"]')).toContainText('2.0.1 on');
    await page.getByTestId('kafka-release').selectOption('3.7');
    await expect(columns).toHaveCount(3);
    await expect(columns.first().locator('.variant__title')).toContainText('Kafka 3.7');
    await expect(columns.first().locator('.variant__subtitle')).toContainText('runs as diverging-epoch');
    // Forgetting the release takes its column away: the link and an embed code show what was there before.
    await page.getByTestId('kafka-release').selectOption('');
    await expect(columns).toHaveCount(2);
    await expect(page.getByTestId('variant-diverging-epoch')).toHaveCount(0);
    errors.check();
  });

  for (const phone of [false, true]) {
    test(`Kafka 4.1 keeps the last replica standing from leading, shown beside 3.7${phone ? ' on a 375 px phone' : ''}`, async ({ browser }, testInfo) => {
      const context = await browser.newContext(phone ? PHONE : { viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await open(page);
      await pasteScenario(page, LAST_REPLICA_STANDING, 'Last replica standing');
      await openPanel(page, 'Configuration: variants, brokers, cluster settings');
      await expect(page.getByTestId('kafka-release')).toHaveValue('4.1');
      await expect(page.getByTestId('kafka-release-about')).toContainText('Eligible Leader Replicas on by default');
      await expect(page.getByTestId('config-elr')).toHaveValue('');
      await expect(page.getByTestId('config-ibp')).toHaveCount(0);
      // After B's clean shutdown (step 10) B is an Eligible Leader Replica.
      const article = page.getByTestId('variant-diverging-epoch');
      await page.getByTestId('cursor-home').click();
      for (let i = 0; i < 11; i++) await page.getByTestId('cursor-forward').click();
      await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 10 of 14: shutdown/);
      await expect(article.getByTestId('elr-diverging-epoch-B')).toBeVisible();
      await expect(article.locator('.variant__controller')).toContainText('ISR {A} · ELR {B}');
      await page.getByTestId('cursor-end').click();
      const head = article.locator('.variant__head');
      await expect(head).not.toContainText('I1');
      await shot(page, testInfo, phone ? 'elr-phone' : 'elr-desktop');
      // Under 3.7 the same story loses m2, by design (every ISR member lost power).
      await page.getByTestId('kafka-release').selectOption('3.7');
      await expect(page.getByTestId('config-elr')).toHaveCount(0);
      await expect(page.getByTestId('config-ibp')).toBeVisible();
      await expect(article.locator('.variant__controller')).not.toContainText('ELR');
      await expect(head).toContainText('I1');
      // An inter-broker protocol below 0.11 runs the old rule, and says so.
      // Kafka starts with that protocol only with the message format lowered too, so the format follows it.
      await page.getByTestId('config-ibp').selectOption('0.10.2');
      await expect(page.getByTestId('config-format')).toHaveValue('0.10.2');
      await expect(page.getByTestId('kafka-release-about')).toContainText('run the hw-truncation rule instead');
      errors.check();
      await context.close();
    });
  }
});

test.describe('the metadata mode', () => {
  for (const phone of [false, true]) {
    test(`a 3.x release runs in ZooKeeper or KRaft mode, speaks its words and keeps it in the link${phone ? ' on a 375 px phone' : ''}`, async ({ browser }, testInfo) => {
      const context = await browser.newContext(phone ? PHONE : { viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors = watchErrors(page);
      await open(page);
      await pasteScenario(page, FOLLOWER_DIES, 'A follower dies');
      await openPanel(page, 'Configuration: variants, brokers, cluster settings');
      await expect(page.getByTestId('kafka-release')).toHaveValue('3.6');
      const mode = page.getByTestId('config-metadata-mode');
      await expect(mode).toHaveValue('');
      await expect(page.getByTestId('kafka-release-about')).toContainText('Kafka 3.6 in ZooKeeper mode');
      // ZooKeeper: the controller's ISR shrink after C's crash raises the leader epoch.
      const article = page.getByTestId('variant-diverging-epoch');
      const controller = article.locator('.variant__controller');
      await page.getByTestId('cursor-home').click();
      for (let i = 0; i < 4; i++) await page.getByTestId('cursor-forward').click();
      await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 3 of 5: crash/);
      await expect(controller).toContainText('epoch 1 · ISR {A, B}');
      await expect(page.getByTestId('narration-diverging-epoch')).toContainText('the controller notices');
      // KRaft: fenced when its session expires; only the partition epoch moves.
      await mode.selectOption('kraft');
      await expect(page.getByTestId('kafka-release-about')).toContainText('Kafka 3.6 in KRaft mode');
      await expect(page.getByTestId('kafka-release-about')).toContainText('raises only the partition epoch (KAFKA-15021)');
      await expect(controller).toContainText('leader epoch 0 · partition epoch 1 · ISR {A, B}');
      await expect(page.getByTestId('narration-diverging-epoch')).toContainText('broker.session.timeout.ms');
      await expect(page.getByTestId('config-ibp')).toHaveCount(0);
      await shot(page, testInfo, phone ? 'kraft-phone' : 'kraft-desktop');
      // The message diagram speaks KRaft's words.
      await page.getByTestId('messages-panel').locator('summary').click();
      const diagram = page.getByTestId('seq-diagram');
      await expect(diagram).toContainText('diverging-epoch: PartitionChangeRecord leader epoch 0, partition epoch 0, leader A');
      await expect(diagram).not.toContainText('diverging-epoch: LeaderAndIsr');
      // The plain variants shown beside it run no release, so they keep ZooKeeper's LeaderAndIsr.
      await expect(diagram).toContainText('kip-279: LeaderAndIsr epoch 0, leader A');
      // The text form says it, and an edit there is read back.
      await page.getByTestId('text-toggle').click();
      await expect(page.getByTestId('text-input')).toHaveValue(/metadata_mode: kraft\n/);
      await page.getByTestId('text-toggle').click();
      // The link keeps the mode.
      await page.reload();
      await expect(page.getByTestId('headline')).toBeVisible();
      await openPanel(page, 'Configuration: variants, brokers, cluster settings');
      await expect(page.getByTestId('config-metadata-mode')).toHaveValue('kraft');
      // 2.7 has no KRaft: choosing it drops the mode and says so; 4.1 has only KRaft.
      await page.getByTestId('kafka-release').selectOption('2.7');
      await expect(page.getByTestId('config-metadata-mode-fixed')).toHaveText('Metadata: ZooKeeper: KRaft came in 2.8.');
      await page.getByTestId('kafka-release').selectOption('4.1');
      await expect(page.getByTestId('config-metadata-mode-fixed')).toHaveText('Metadata: KRaft: 4.0 removed ZooKeeper.');
      await expect(page.getByTestId('kafka-release-about')).toContainText('Kafka 4.1 in KRaft mode');
      errors.check();
      await context.close();
    });
  }

  test('under 4.1 every replica losing power ends with the last known leader, not a partition offline for ever', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await pasteScenario(page, EVERY_REPLICA_LOSES_POWER, 'Every replica loses power');
    const article = page.getByTestId('variant-diverging-epoch');
    await page.getByTestId('cursor-home').click();
    await page.getByTestId('cursor-end').click();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 8 of 8: restart/);
    await expect(article.locator('.variant__controller')).toContainText('Controller: leader A · leader epoch 2');
    await expect(page.getByTestId('narration-diverging-epoch')).toContainText('the last known leader');
    errors.check();
  });
});

const FOLLOWER_DIES = [
  'name: A follower dies', 'brokers: A B C', 'kafka_version: 3.6', '', 'elect A', 'produce m1', 'settle', 'crash C',
  'produce m2', 'settle', '',
].join('\n');

const EVERY_REPLICA_LOSES_POWER = [
  'name: Every replica loses power', 'brokers: A B C', 'kafka_version: 4.1', 'flush: manual', '', 'elect A',
  'produce m1', 'settle', 'crash B power', 'crash C power', 'crash A power', 'restart B', 'restart C', 'restart A', '',
].join('\n');

const LAST_REPLICA_STANDING = [
  'name: Last replica standing', 'brokers: A B C', 'kafka_version: 4.1', 'min_insync_replicas: 2', 'flush: manual', '',
  'elect A', 'produce m1', 'settle', 'flush A', 'flush B', 'flush C', 'crash C', 'produce m2', 'fetch B', 'fetch B',
  'shutdown B', 'crash A power', 'restart A', 'restart B', 'settle', '',
].join('\n');

test.describe('what consumers saw', () => {
  test('the consumer read m2, which hw-truncation later loses: a phantom read from step 9', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    const old = page.getByTestId('reads-hw-truncation');
    await expect(old).toContainText('from B below HW 2');
    const m2 = old.getByTestId('read-record').filter({ hasText: 'm2@1' });
    await expect(m2).toHaveAttribute('data-lost', 'true');
    await expect(m2).toContainText('gone since step 9: phantom read');
    await expect(page.getByTestId('reads-kip-279').locator('[data-lost="true"]')).toHaveCount(0);
    await old.screenshot({ path: testInfo.outputPath('reads-desktop.png') });
    // Before step 9 the read is not lost yet; before step 6 there was no read.
    await old.getByRole('button', { name: 'Go to step 6, this read' }).click();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 6 of/);
    await expect(m2).toHaveAttribute('data-lost', 'false');
    await page.keyboard.press('Home');
    await expect(old).toContainText('1 read(s) after this step.');
    errors.check();
  });

  // The page keeps what consumers saw when a drop at the end changes none of it (src/components/variant_panel.rs):
  // each drop here appends a step that does change it, and the list must follow.
  test('drops at the end that lose a read record, or read again, show in the list at once', async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    const old = page.getByTestId('reads-hw-truncation');
    const m2 = old.getByTestId('read-record').filter({ hasText: 'm2@1' });
    await page.getByTestId('chip-9').focus();
    await page.keyboard.press('Delete');
    await expect(m2).toHaveAttribute('data-lost', 'false');
    // B crashes again, dropped at the end: m2 is gone from the new leader A.
    await mouseDrag(page, page.getByTestId('palette-crash'), cell(page, 1, 'end'));
    await expect(page.getByTestId('chip-9')).toHaveAttribute('data-kind', 'crash');
    await expect(m2).toHaveAttribute('data-lost', 'true');
    await expect(m2).toContainText('gone since step 9: phantom read');
    // A Flush changes nothing a consumer saw; a Consume reads again.
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(page.getByTestId('chip-10')).toHaveAttribute('data-kind', 'flush');
    await expect(old.locator('.reads__read')).toHaveCount(1);
    await mouseDrag(page, page.getByTestId('palette-consume'), cell(page, 0, 'end'));
    await expect(page.getByTestId('chip-11')).toHaveAttribute('data-kind', 'consume');
    await expect(old.locator('.reads__read')).toHaveCount(2);
    errors.check();
  });
});

test.describe('at 375 px', () => {
  test('the diagram scrolls sideways under its headers; the strips wrap', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 740 });
    await open(page);
    await preset(page, 'kafka-6361-fast-failover');
    await openMessages(page);
    await page.getByTestId('seq-first-difference').getByRole('button', { name: 'Show step 10' }).click();
    await expect(page.getByTestId('cursor-position')).toHaveText(/^Step 10 of 10/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await diagramShot(page, testInfo.outputPath('diagram-phone.png'));
    await openPanel(page, 'Configuration: variants, brokers, cluster settings');
    await page.getByTestId('bisect').screenshot({ path: testInfo.outputPath('bisect-phone.png') });
    await preset(page, 'kip101-scenario-1');
    await page.getByTestId('reads-hw-truncation').or(page.getByTestId('reads-kip-279')).first().screenshot({ path: testInfo.outputPath('reads-phone.png') });
    errors.check();
  });
});
