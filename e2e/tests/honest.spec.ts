// Issue 10, parts 3 to 5 (the screen never misleads; pictures and links keep their promises; only the
// embedding page drives an embed). Screenshots go to /tmp/honest-*.png to be looked at.
import { expect, Page, test } from '@playwright/test';
import { chips, open, PHONE, watchErrors } from './helpers';

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/honest-${name}.png`, fullPage: true });

async function openPreset(page: Page, id: string) {
  await page.getByTestId('preset-picker').selectOption(id);
  await expect(page.getByTestId('preset-picker')).toHaveValue(id);
}

async function openConfig(page: Page) {
  await page.getByText('Configuration: variants, brokers, cluster settings').click();
}

async function importPasted(page: Page, json: string) {
  await page.getByText('Share, embed, export and import').click();
  await page.getByTestId('import-text').fill(json);
  await page.getByTestId('import-paste').click();
}

/** Every step of the timeline, from before the first to the last, calling `visit` at each. */
async function everyStep(page: Page, steps: number, visit: (step: number) => Promise<void>) {
  for (let s = 0; s < steps; s++) {
    await page.getByTestId(`step-${s}`).click();
    await expect(page.getByTestId('cursor-position')).toContainText(`Step ${s} of`);
    await visit(s);
  }
}

/** WCAG contrast of an element's text against its own background (both computed). */
async function contrastOf(page: Page, selector: string): Promise<{ size: number; ratio: number }> {
  return page.locator(selector).first().evaluate((el) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(el);
    const [a, b] = [lum(style.color), lum(style.backgroundColor)];
    return { size: parseFloat(style.fontSize), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  });
}

test.describe('presets and verdicts', () => {
  test('a preset opens with exactly the variants it is about, whatever was shown before', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openConfig(page);
    await page.getByTestId('variant-toggle-diverging-epoch').check();
    await expect(page.getByTestId('variant-diverging-epoch')).toBeVisible();
    const option = page.locator('[data-testid="preset-picker"] option[value="unclean-elections-diverge"]');
    await expect(option).toContainText('(kip-279 vs kip-101)');
    await openPreset(page, 'unclean-elections-diverge');
    await expect(page.locator('.variant')).toHaveCount(2);
    await expect(page.getByTestId('variant-kip-279')).toBeVisible();
    await expect(page.getByTestId('verdict-kip-101')).toContainText('fails');
    await expect(page.getByTestId('variant-diverging-epoch')).toHaveCount(0);
    await openPreset(page, 'happy-path');
    await expect(page.locator('.variant')).toHaveCount(1);
    await expect(page.getByTestId('variant-kip-279')).toBeVisible();
    await shot(page, 'preset-variants');
    errors.check();
  });

  test('a write refused by min.insync.replicas: the verdict and the headline say so', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'kip101-scenario-2');
    await openConfig(page);
    await page.getByTestId('config-min-isr').fill('2');
    await page.getByTestId('config-min-isr').dispatchEvent('change');
    const verdict = page.getByTestId('verdict-hw-truncation');
    await expect(verdict).toHaveText(
      'no invariant fails, because the write at step 15 was refused (min.insync.replicas = 2); accepted, I3, I4 would fail',
    );
    await expect(page.getByTestId('headline')).toContainText('hw-truncation holds only because the write at step 15 was refused');
    await expect(page.getByTestId('headline')).not.toContainText('hw-truncation holds every invariant');
    await expect(page.getByTestId('verdict-kip-101')).toHaveText('no invariant fails');
    await verdict.scrollIntoViewIfNeeded();
    await shot(page, 'refused-write');
    errors.check();
  });

  test('an unnamed produce chip shows the record the log will show', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const scenario = {
      version: 1, name: 'Unnamed', brokers: ['A', 'B'],
      events: [{ kind: 'elect', broker: 'A' }, { kind: 'produce' }, { kind: 'produce', record: 'mine' }, { kind: 'produce' }],
    };
    await importPasted(page, JSON.stringify(scenario));
    await expect(chips(page)).toHaveCount(4);
    await expect(page.getByTestId('chip-1')).toContainText('r0');
    await expect(page.getByTestId('chip-2')).toContainText('mine');
    await expect(page.getByTestId('chip-3')).toContainText('r2');
    await expect(page.getByTestId('chip-1')).not.toContainText('record');
    // The log names them alike.
    await expect(page.locator('[data-testid="cell-kip-279-A-2"]').first()).toContainText('r2');
    errors.check();
  });
});

test.describe('red means a bug, only', () => {
  test('no cell is red in a variant that holds every invariant; allowed losses look their own way', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'unclean-elections-diverge');
    const holding = page.getByTestId('variant-kip-279');
    const steps = await page.locator('[data-testid^="step-"]').count();
    let allowed = 0;
    await everyStep(page, steps, async () => {
      await expect(holding.locator('.cell--divergent, .cell--lost, .cell--flagged')).toHaveCount(0);
      allowed += await holding.locator('.cell--lost_allowed, .cell__lost--allowed, .cell--differs, .cell--allowed').count();
    });
    expect(allowed).toBeGreaterThan(0);
    // The failing variant still shows its bug in red at the end.
    await page.keyboard.press('End');
    await expect(page.getByTestId('variant-kip-101').locator('.cell--divergent').first()).toBeVisible();
    await shot(page, 'no-red-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'no-red-dark');
    errors.check();
  });

  test("the legend's samples are drawn like the cells, and the lost-here mark is legible in both themes", async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'unclean-elections-diverge');
    await page.getByTestId('step-12').click();
    const legend = page.getByLabel('Legend');
    for (const status of ['committed', 'uncommitted', 'differs', 'divergent', 'truncated', 'lost', 'lost_allowed']) {
      await expect(legend.getByTestId(`legend-${status}`).locator('.cell')).toHaveClass(new RegExp(`cell--${status}\\b`));
    }
    // Same colours, borders and outline as a cell of the grid with that status.
    // (The background is the record's epoch colour, except where the status sets its own.)
    const look = (el: Element) => {
      const s = getComputedStyle(el);
      const own = el.classList.contains('cell--lost_allowed') ? s.backgroundColor : '';
      return [own, s.borderTopColor, s.borderTopStyle, s.outlineColor, s.outlineStyle, s.color, s.fontSize].join(' ');
    };
    let compared = 0;
    for (const status of ['differs', 'lost_allowed']) {
      const gridCell = page.locator(`.variants .cell--${status}:not(.cell--replaced)`).first();
      if ((await gridCell.count()) === 0) continue;
      compared += 1;
      expect(await gridCell.evaluate(look), status).toBe(await legend.getByTestId(`legend-${status}`).locator('.cell').evaluate(look));
    }
    expect(compared).toBeGreaterThan(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const mark of ['.variants .cell__lost', '[data-testid="legend-replaced"] .cell__lost']) {
        const { size, ratio } = await contrastOf(page, mark);
        expect(size, `${mark} in ${scheme}`).toBeGreaterThanOrEqual(11);
        expect(ratio, `${mark} in ${scheme}`).toBeGreaterThanOrEqual(4.5);
      }
      await legend.scrollIntoViewIfNeeded();
      await shot(page, `legend-${scheme}`);
    }
    errors.check();
  });

  test('the invariant list: bugs first, allowed losses grouped and collapsed, dimmed entries say why', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'unclean-elections-diverge');
    const panel = page.getByTestId('variant-kip-101').locator('.invariants');
    const first = panel.locator(':scope > :not(h3)').first();
    await expect(first).toHaveAttribute('data-testid', 'bugs-kip-101');
    await expect(first.locator('.violation__tag').first()).toHaveText('bug');
    const groups = panel.getByTestId('allowed-kip-101');
    expect(await groups.count()).toBeGreaterThan(0);
    await expect(groups.first().locator('summary')).toHaveText(/^\d+ allowed: an unclean leader election happened after it was written$/);
    await expect(groups.first().locator('.violation').first()).toBeHidden();
    await groups.first().locator('summary').click();
    await expect(groups.first().locator('.violation').first()).toBeVisible();
    // Before step 7 nothing that first holds at step 7 holds yet: dimmed, and said so.
    await page.getByTestId('step-2').click();
    const dimmed = panel.locator('.violation[data-now="false"]').first();
    await expect(dimmed.getByTestId('violation-not-now')).toHaveText(/^holds at another step, not at this one \(first at step \d+\)$/);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'invariants');
    errors.check();
  });
});

test.describe('pictures and links', () => {
  test('the address holds the scenario from the first load, before any edit', async ({ browser, page }) => {
    const errors = watchErrors(page);
    await open(page);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1/);
    const link = await page.evaluate(() => location.href);
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(other.getByTestId('headline')).toHaveText(await page.getByTestId('headline').innerText());
    await expect(other.getByTestId('cursor-position')).toHaveText(await page.getByTestId('cursor-position').innerText());
    await fresh.close();
    errors.check();
  });

  test('an exported PNG carries the scenario: dropping it or picking it opens it', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'kafka-6361-fast-failover');
    await page.getByTestId('step-5').click();
    await page.getByText('Share, embed, export and import').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    const path = await download.path();
    const bytes = require('fs').readFileSync(path) as Buffer;
    expect(download.suggestedFilename()).toMatch(/\.png$/);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    // The README's width: 1440 px (the 720 px view at twice the density).
    expect(bytes.readUInt32BE(16)).toBe(1440);
    expect(bytes.includes(Buffer.from('iTXtepochlab-scenario'))).toBe(true);
    require('fs').copyFileSync(path, '/tmp/honest-export.png');

    await page.getByTestId('new-scenario').click();
    await expect(chips(page)).toHaveCount(0);
    const base64 = bytes.toString('base64');
    const dataTransfer = await page.evaluateHandle((b64) => {
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([raw], 'picture.png', { type: 'image/png' }));
      return dt;
    }, base64);
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await expect(page.getByTestId('headline')).toContainText('KAFKA-6361');
    await expect(page.getByTestId('cursor-position')).toContainText('Step 5 of');
    await expect(page.getByTestId('variant-kip-101')).toBeVisible();

    await page.getByTestId('new-scenario').click();
    await page.getByTestId('import-file').setInputFiles({ name: 'again.png', mimeType: 'image/png', buffer: bytes });
    await expect(page.getByTestId('headline')).toContainText('KAFKA-6361');
    // A PNG made elsewhere says so and changes nothing.
    await page.getByTestId('import-file').setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: bytes.subarray(0, 33) });
    await expect(page.getByTestId('notice')).toContainText('this PNG was not made by Epochlab');
    await expect(page.getByTestId('headline')).toContainText('KAFKA-6361');
    errors.check();
  });

  test('a description too long for any link: the page says so and the address holds no link', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const scenario = { version: 1, name: 'Long prose', description: 'x'.repeat(1_200_000), brokers: ['A'], events: [{ kind: 'elect' }] };
    await importPasted(page, JSON.stringify(scenario));
    await expect(page.getByTestId('headline')).toContainText('Long prose');
    const warning = page.getByTestId('share-too-long');
    await expect(warning).toContainText('too large for a link');
    await expect(warning).toContainText('unpacks to more than 1048576 bytes');
    await expect(warning).toContainText('share it as a JSON file instead');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
    await warning.screenshot({ path: '/tmp/honest-long-link.png' });
    errors.check();
  });
});

test.describe('on a 375 px touch screen', () => {
  test.use(PHONE);

  test('a preset opens with its variants, the verdicts say why, the legend explains the looks', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openPreset(page, 'unclean-elections-diverge');
    await expect(page.locator('.variant')).toHaveCount(2);
    await page.getByTestId('step-12').tap();
    await expect(page.getByTestId('variant-kip-279').locator('.cell--divergent, .cell--lost, .cell--flagged')).toHaveCount(0);
    const group = page.getByTestId('allowed-kip-279').first();
    await group.locator('summary').tap();
    await expect(group.locator('.violation').first()).toBeVisible();
    const box = (await group.locator('summary').boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(24);
    await page.getByTestId('variant-kip-279').screenshot({ path: '/tmp/honest-phone-panel-light.png' });
    await page.getByLabel('Legend').screenshot({ path: '/tmp/honest-phone-legend-light.png' });
    await shot(page, 'phone-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    // One variant at a time on a phone: switch to the other to see it.
    await page.getByTestId('variant-switch-kip-101').tap();
    await page.getByTestId('variant-kip-101').screenshot({ path: '/tmp/honest-phone-panel-dark.png' });
    await shot(page, 'phone-dark');
    errors.check();
  });
});
