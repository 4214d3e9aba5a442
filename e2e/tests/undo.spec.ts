import { expect, Page, test } from '@playwright/test';
import * as fs from 'fs';
import * as path from 'path';
import { cell, chips, laneOf, mouseDrag, open, PHONE, watchErrors } from './helpers';

// Issue 10, part 1: nothing the user made is ever lost (undo and redo, My scenarios, names), and storage that
// is blocked or full never blanks the page or fails silently.

const WORKING = 'epochlab.working.v1';
const LIBRARY = 'epochlab.library.v1';
const presetJson = (id: string) =>
  fs.readFileSync(path.join(__dirname, '../../crates/epochlab-core/src/presets', `${id}.json`), 'utf8');

async function openPanel(page: Page, summary: string) {
  const details = page.locator('details', { has: page.locator('summary', { hasText: summary }) });
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await details.locator('summary').click();
}

const openConfig = (page: Page) => openPanel(page, 'Configuration: variants, brokers');
const openMine = (page: Page) => openPanel(page, 'Name, description and My scenarios');
const openShare = (page: Page) => openPanel(page, 'Share, embed, export and import');

/** Undo with the keyboard, with the focus on the page (not in a field). */
async function undoKey(page: Page) {
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Control+z');
}

async function headline(page: Page) {
  return (await page.getByTestId('headline').textContent()) ?? '';
}

async function storedText(page: Page, key: string) {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

test.describe('undo and redo', () => {
  test('every kind of edit undoes and redoes, by keyboard and by button, with the cursor', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const undo = page.getByRole('button', { name: 'Undo (Ctrl+Z)' });
    const redo = page.getByRole('button', { name: 'Redo (Ctrl+Shift+Z)' });
    await expect(undo).toBeDisabled();
    await expect(redo).toBeDisabled();

    // An event, with the cursor on step 5: the cursor comes back with the undo.
    await page.getByTestId('step-5').click();
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 2));
    await expect(chips(page)).toHaveCount(11);
    await page.getByTestId('step-9').click();
    await undoKey(page);
    await expect(chips(page)).toHaveCount(10);
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 5 of 9: fetch');
    await expect(redo).toBeEnabled();
    await page.keyboard.press('Control+Shift+Z');
    await expect(chips(page)).toHaveCount(11);
    await undo.click();
    await expect(chips(page)).toHaveCount(10);
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('Control+y');
    await expect(chips(page)).toHaveCount(11);
    await undo.click();
    await expect(chips(page)).toHaveCount(10);

    // A field of an event (the editor).
    await page.getByTestId('chip-7').click();
    await page.getByTestId('editor-broker').selectOption('B');
    await expect.poll(() => laneOf(page.getByTestId('chip-7'))).toBe('1');
    await undo.click();
    await expect.poll(() => laneOf(page.getByTestId('chip-7'))).toBe('0');

    // Configuration, brokers and the variants shown.
    await openConfig(page);
    await page.getByTestId('broker-add').click();
    await expect(page.getByTestId('lane-C')).toBeVisible();
    await undo.click();
    await expect(page.getByTestId('lane-C')).toHaveCount(0);
    await page.getByTestId('broker-name-B').fill('bee');
    await page.getByTestId('broker-name-B').press('Enter');
    await expect(page.getByTestId('lane-bee')).toBeVisible();
    await undo.click();
    await expect(page.getByTestId('lane-B')).toBeVisible();
    await page.getByTestId('config-unclean').selectOption('on');
    await expect(page.getByTestId('config-unclean')).toHaveValue('on');
    await undo.click();
    await expect(page.getByTestId('config-unclean')).toHaveValue('');
    await page.getByTestId('variant-toggle-kip-101').check();
    await expect(page.getByTestId('variant-kip-101')).toBeVisible();
    await undo.click();
    await expect(page.getByTestId('variant-kip-101')).toHaveCount(0);

    // A preset and "New scenario".
    const landing = await headline(page);
    await page.getByTestId('preset-picker').selectOption('happy-path');
    await expect(page.getByTestId('headline')).not.toHaveText(landing);
    await undo.click();
    await expect(page.getByTestId('headline')).toHaveText(landing);
    await page.getByTestId('new-scenario').click();
    await expect(chips(page)).toHaveCount(0);
    await undo.click();
    await expect(chips(page)).toHaveCount(10);

    // An import.
    await openShare(page);
    await page.getByTestId('import-text').fill(presetJson('happy-path'));
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('headline')).toContainText('Happy path');
    await page.getByTestId('notice').getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('headline')).toHaveText(landing);

    // The name: in its field, Ctrl+Z is the browser's own undo, not the app's.
    await openMine(page);
    const name = page.getByTestId('scenario-name');
    await name.fill('My lab');
    await name.press('Enter');
    await expect(page.getByTestId('headline')).toContainText('My lab:');
    await name.press('Control+z');
    await expect(page.getByTestId('headline')).toContainText('My lab:');
    // Put the field back as the model has it, so that leaving it changes nothing.
    await name.fill('My lab');
    await undo.click();
    await expect(page.getByTestId('headline')).toHaveText(landing);
    await page.screenshot({ path: '/tmp/undo-desktop-undone.png' });
    errors.check();
  });
});

test.describe('My scenarios', () => {
  test('a preset opened over the user scenario keeps it; it reopens, renames, duplicates and deletes', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('headline')).toContainText('KIP-101 scenario 1: a committed record lost (edited):');
    await expect(page.getByTestId('description-source')).toBeVisible();

    await page.getByTestId('preset-picker').selectOption('happy-path');
    const notice = page.getByTestId('notice');
    await expect(notice).toContainText('saved in My scenarios');
    await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
    await page.screenshot({ path: '/tmp/undo-desktop-kept-notice.png' });
    expect(await storedText(page, LIBRARY)).toContain('(edited)');

    // Kept across a reload, and opened again from the list.
    await page.reload();
    await openMine(page);
    const entries = page.getByTestId('saved-list').locator('li');
    await expect(entries).toHaveCount(1);
    const id = (await entries.first().getAttribute('data-testid'))!.replace('saved-', '');
    const entry = page.getByTestId(`saved-${id}`);
    await expect(page.getByTestId(`saved-name-${id}`)).toHaveValue('KIP-101 scenario 1: a committed record lost (edited)');
    await page.getByRole('button', { name: /^Open KIP-101 scenario 1/ }).click();
    await expect(chips(page)).toHaveCount(11);
    await expect(entry).toContainText('(open now)');
    await expect(entries, 'the unedited preset it replaced is not kept').toHaveCount(1);
    await page.screenshot({ path: '/tmp/undo-desktop-my-scenarios.png', fullPage: true });

    // Rename: the open scenario takes the name too.
    await page.getByTestId(`saved-name-${id}`).fill('Lost m2, my version');
    await page.getByTestId(`saved-name-${id}`).press('Enter');
    await expect(page.getByTestId('headline')).toContainText('Lost m2, my version:');
    await page.getByTestId(`saved-duplicate-${id}`).click();
    await expect(entries).toHaveCount(2);
    await expect(entries.first().locator('input')).toHaveValue('Lost m2, my version (copy)');
    await page.getByTestId(`saved-delete-${id}`).click();
    await expect(entries).toHaveCount(1);
    await expect(notice).toContainText('Deleted');
    await notice.getByRole('button', { name: 'Undo' }).click();
    await expect(entries).toHaveCount(2);
    await expect.poll(async () => JSON.parse((await storedText(page, LIBRARY))!).length).toBe(2);
    errors.check();
  });

  test('two tabs: what one keeps, the other shows and never writes over', async ({ page, context }) => {
    const errors = watchErrors(page);
    await open(page);
    const other = await context.newPage();
    await other.goto('./');
    await expect(other.getByTestId('headline')).toBeVisible();
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await page.getByTestId('new-scenario').click();
    await expect(page.getByTestId('notice')).toContainText('saved in My scenarios');
    await openMine(other);
    await expect(other.getByTestId('saved-list').locator('li')).toHaveCount(1);
    // The other tab keeps a scenario of its own: both are in the list.
    await mouseDrag(other, other.getByTestId('palette-crash'), cell(other, 0, 'end'));
    await other.getByTestId('preset-picker').selectOption('happy-path');
    await expect(other.getByTestId('saved-list').locator('li')).toHaveCount(2);
    await expect.poll(async () => JSON.parse((await storedText(page, LIBRARY))!).length).toBe(2);
    await openMine(page);
    await expect(page.getByTestId('saved-list').locator('li')).toHaveCount(2);
    errors.check();
  });

  test('a corrupt entry gives a notice, the others open, and it is written back untouched', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await page.getByTestId('new-scenario').click();
    const good = JSON.parse((await storedText(page, LIBRARY))!);
    const junk = { id: 99, note: 'written by hand' };
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [LIBRARY, JSON.stringify([...good, junk])]);
    await page.reload();
    await expect(page.getByTestId('notice')).toContainText('could not be read');
    await openMine(page);
    await expect(page.getByTestId('saved-list').locator('li')).toHaveCount(1);
    // A change to the library keeps the unreadable entry as it was.
    const id = (await page.getByTestId('saved-list').locator('li').first().getAttribute('data-testid'))!.slice(6);
    await page.getByTestId(`saved-duplicate-${id}`).click();
    await expect.poll(async () => JSON.parse((await storedText(page, LIBRARY))!)).toContainEqual(junk);
    errors.check();
  });
});

test.describe('name and description', () => {
  test('the name shows in the headline, the embed code and the file names; the description under the headline', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openMine(page);
    await page.getByTestId('scenario-name').fill('Two brokers & a lost ack');
    await page.getByTestId('scenario-name').press('Tab');
    await page.getByTestId('scenario-description').fill('My notes on why m2 goes.');
    await page.getByTestId('scenario-description').press('Tab');
    await expect(page.getByTestId('headline')).toContainText('Two brokers & a lost ack:');
    await expect(page.getByTestId('description')).toHaveText('My notes on why m2 goes.');
    await openShare(page);
    await expect(page.getByTestId('embed-code')).toHaveValue(/title="Epochlab: Two brokers &amp; a lost ack"/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(download.suggestedFilename()).toBe('two-brokers-a-lost-ack.json');
    await page.screenshot({ path: '/tmp/undo-desktop-named.png' });
    errors.check();
  });
});

test.describe('broken storage', () => {
  const blockStorage = () => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('The user denied access to site data', 'SecurityError');
      },
    });
  };

  test('storage that throws: the page opens, works and says once that nothing will be kept', async ({ page }) => {
    const errors = watchErrors(page);
    await page.addInitScript(blockStorage);
    await page.goto('./');
    await expect(page.getByTestId('headline')).toBeVisible();
    await expect(page.getByTestId('notice')).toContainText('nothing will be kept');
    await page.screenshot({ path: '/tmp/undo-desktop-blocked.png' });
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    // Opening a preset still keeps the scenario for this page, and undo brings it back.
    await page.getByTestId('preset-picker').selectOption('happy-path');
    await page.getByTestId('notice').getByRole('button', { name: 'Undo' }).click();
    await expect(chips(page)).toHaveCount(11);
    await page.waitForTimeout(500);
    await expect(page.getByTestId('notice')).toHaveCount(0);
    // An embed opens too, and an editable one undoes.
    await page.goto('./#embed=edit');
    await expect(page.getByTestId('embed')).toBeVisible();
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    await page.getByTestId('undo').click();
    await expect(chips(page)).toHaveCount(10);
    await page.screenshot({ path: '/tmp/undo-desktop-embed-edit.png' });
    errors.check();
  });

  test('a frame from another site (no third-party storage) opens, as a page and as an embed', async ({ page, baseURL }) => {
    const errors = watchErrors(page);
    // The host page on 127.0.0.1 frames the app on localhost: another site, so its storage throws.
    const app = new URL(baseURL!);
    const other = new URL(app.href);
    other.hostname = 'localhost';
    await page.route(`${app.origin}/host.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<iframe id="page" src="${other.href}" width="1000" height="700"></iframe>
               <iframe id="embed" src="${other.href}#embed=edit" width="720" height="600"></iframe>`,
      }),
    );
    // The server listens on 127.0.0.1 only: localhost's requests are answered from there.
    await page.route(`${other.origin}/**`, async (route) => {
      const url = route.request().url().replace(other.origin, app.origin);
      await route.fulfill({ response: await route.fetch({ url }) });
    });
    await page.goto(`${app.origin}/host.html`);
    const full = page.frameLocator('#page');
    await expect(full.getByTestId('headline')).toBeVisible();
    await expect(full.getByTestId('notice')).toContainText('nothing will be kept');
    const embed = page.frameLocator('#embed');
    await expect(embed.getByTestId('embed')).toBeVisible();
    await page.screenshot({ path: '/tmp/undo-desktop-cross-site.png' });
    errors.check();
  });

  test('a setItem that throws gives a notice, keeps the scenario on the page and the stored one untouched', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect.poll(() => storedText(page, WORKING)).toContain('"flush"');
    const stored = await storedText(page, WORKING);
    await page.evaluate(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await mouseDrag(page, page.getByTestId('palette-crash'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(12);
    await expect(page.getByTestId('notice')).toContainText('could not be saved');
    await expect(page.getByTestId('notice')).toContainText('full');
    await page.screenshot({ path: '/tmp/undo-desktop-quota.png' });
    expect(await storedText(page, WORKING)).toBe(stored);
    // Opening a preset: My scenarios cannot be written either, and the page says so.
    await page.getByTestId('notice').getByRole('button', { name: 'Dismiss this notice' }).click();
    await page.getByTestId('preset-picker').selectOption('happy-path');
    await expect(page.getByTestId('notice')).toContainText('My scenarios could not be saved');
    await page.getByTestId('notice').getByRole('button', { name: 'Undo' }).click();
    await expect(chips(page)).toHaveCount(12);
    errors.check();
  });
});

test.describe('pasted imports', () => {
  test('a paste that starts with a byte-order mark imports like the file', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openShare(page);
    await page.getByTestId('import-text').fill('\ufeff' + presetJson('happy-path'));
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('headline')).toContainText('Happy path');
    await expect(page.getByTestId('notice')).not.toHaveClass(/notice--error/);
    errors.check();
  });

  test('a paste over 4 MB is refused with the file picker message, the scenario unchanged', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const before = await headline(page);
    await openShare(page);
    await page.getByTestId('import-text').evaluate((el: HTMLTextAreaElement) => {
      el.value = ' '.repeat(4 * 1024 * 1024) + '{}';
    });
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('notice')).toContainText('the pasted text is larger than 4 MB');
    await expect(page.getByTestId('headline')).toHaveText(before);
    errors.check();
  });
});

test.describe('on a phone', () => {
  test.use(PHONE);

  test('undo, redo and My scenarios work by touch at 375 px, with targets of at least 24 px', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openConfig(page);
    await page.getByTestId('broker-add').tap();
    await expect(page.getByTestId('lane-C')).toBeVisible();
    const undo = page.getByTestId('undo');
    await undo.tap();
    await expect(page.getByTestId('lane-C')).toHaveCount(0);
    await page.getByTestId('redo').tap();
    await expect(page.getByTestId('lane-C')).toBeVisible();
    await page.getByTestId('new-scenario').tap();
    await expect(page.getByTestId('notice')).toContainText('saved in My scenarios');
    await page.screenshot({ path: '/tmp/undo-375-kept-notice.png' });
    await openMine(page);
    const openEntry = page.getByRole('button', { name: /^Open KIP-101 scenario 1/ });
    await openEntry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/undo-375-my-scenarios.png' });
    for (const target of [undo, page.getByTestId('redo'), openEntry, page.getByTestId('notice').getByRole('button', { name: 'Undo' })]) {
      const box = (await target.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    await openEntry.tap();
    await expect(page.getByTestId('lane-C')).toBeVisible();
    errors.check();
  });
});
