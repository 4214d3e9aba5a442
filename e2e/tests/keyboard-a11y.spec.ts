import { expect, Page, test } from '@playwright/test';
import { chips, expectAccessible, open, PHONE, watchErrors } from './helpers';

// Issue #11: a keyboard flow that keeps its place, logs read cell by cell, narration in a live region, a
// phone dock that hides no focused element, reflow at 320 px, forced colours.

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

test('after a keyboard delete or move the focus stays on the chip or its neighbour', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const kindOf5 = await page.getByTestId('chip-5').getAttribute('data-kind');
  const kindOf4 = await page.getByTestId('chip-4').getAttribute('data-kind');
  await page.getByTestId('chip-3').focus();
  await page.keyboard.press('Delete');
  await expect(chips(page)).toHaveCount(9);
  await expect(page.getByTestId('chip-3')).toBeFocused();
  await expect(page.getByTestId('chip-3')).toHaveAttribute('data-kind', kindOf4!);
  // The chip that was step 5 is step 4 now: move it two steps left with M, the arrows and Enter.
  await page.getByTestId('chip-4').focus();
  await page.keyboard.press('m');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('chip-2')).toBeFocused();
  await expect(page.getByTestId('chip-2')).toHaveAttribute('data-kind', kindOf5!);
  await expect(page.getByTestId('spoken')).toContainText('Placed: ');
  errors.check();
});

test('the tab order: skip links first, then the header, the palette, the timeline', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const before = (a: string, b: string) =>
    page.evaluate(([a, b]) => {
      const [x, y] = [document.querySelector(a)!, document.querySelector(b)!];
      return !!(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
    }, [a, b]);
  expect(await before('[data-testid="palette-produce"]', '.timeline [data-testid="chip-0"]')).toBe(true);
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the timeline' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#timeline')).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('#timeline'))).toBe(true);
  errors.check();
});

test('the logs are a grid read cell by cell with the arrow keys', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const grid = page.getByRole('grid', { name: /^Logs under hw-truncation/ });
  await expect(grid.getByRole('row')).toHaveCount(2);
  await expect(grid.getByRole('rowheader').first()).toHaveText(/^A: leader, epoch 1, in ISR, HW 1, LEO 1/);
  const position = await page.getByTestId('cursor-position').textContent();
  await grid.locator('[role="gridcell"][tabindex="0"]').focus();
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', 'offset 0, m1, epoch 0, committed, below its HW');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^offset 1, no record, committed, now lost: a bug.*B has m2 here$/);
  await page.keyboard.press('ArrowDown');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^offset 1, m2, epoch 0, .*A has nothing here$/);
  await page.keyboard.press('Home');
  await expect(page.locator(':focus')).toHaveAttribute('data-offset', '0');
  // The cursor's own keys stay with the grid while a cell has the focus.
  await expect(page.getByTestId('cursor-position')).toHaveText(position!);
  // One tab stop: Tab leaves the grid.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="grid"][aria-label^="Logs under hw-truncation"]'))).toBe(false);
  errors.check();
});

test('a screen reader hears each step once and what a placement did', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const spoken = page.getByTestId('spoken');
  await page.keyboard.press('Home');
  await expect(spoken).toHaveText('Before the first step.');
  await page.keyboard.press('ArrowRight');
  await expect(spoken).toHaveText(/^Step 0 of 9, elect: The controller elects B/);
  await expect(spoken).toContainText('Under kip-279: ');
  await page.keyboard.press('ArrowRight');
  await expect(spoken).toHaveText(/^Step 1 of 9, produce: /);
  await expect(spoken).not.toContainText('Under kip-279');
  await page.getByTestId('palette-crash').focus();
  await page.keyboard.press('Enter');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('placing-help')).toContainText("Placing new Crash on broker B's lane, before step 7 (crash of A).");
  await page.keyboard.press('Enter');
  await expect(spoken).toHaveText(/^Placed: crash of B at step 7; /);
  errors.check();
});

test.describe('on a 375 px phone', () => {
  test.use(PHONE);

  test('no focused element is hidden by the palette dock', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await page.locator('body').focus();
    const hidden: string[] = [];
    for (let i = 0; i < 90; i++) {
      await page.keyboard.press('Tab');
      const r = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const dock = document.querySelector('.palette')!.getBoundingClientRect();
        if (!el || el === document.body || el.closest('.palette')) return null;
        const b = el.getBoundingClientRect();
        return { id: el.getAttribute('data-testid') ?? el.tagName, under: b.bottom > dock.top + 1 && b.top < dock.bottom };
      });
      if (r?.under) hidden.push(r.id);
    }
    expect(hidden).toEqual([]);
    errors.check();
  });
});

for (const width of [320, 640]) {
  test(`at ${width} CSS px (320 px, or 200 % zoom of 1280 px) nothing scrolls sideways but the timeline and logs`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 800 });
    await open(page);
    for (const summary of ['Configuration: variants, brokers, cluster settings', 'Share, embed, export and import']) {
      await page.locator('summary', { hasText: summary }).click();
    }
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
    errors.check();
  });
}

test('in forced-colors mode cells keep their borders, epochs and markers', async ({ page }) => {
  const errors = watchErrors(page);
  await page.emulateMedia({ forcedColors: 'active' });
  await open(page);
  const cell = page.getByTestId('cell-hw-truncation-B-0');
  expect(await cell.evaluate((el) => getComputedStyle(el).borderTopStyle)).not.toBe('none');
  expect(await cell.evaluate((el) => getComputedStyle(el, '::after').content)).toBe('"0"');
  await expectAccessible(page, 'forced colours');
  await page.screenshot({ path: test.info().outputPath('forced-colors.png'), fullPage: true });
  errors.check();
});
