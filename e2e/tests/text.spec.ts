import { expect, Page, test } from '@playwright/test';
import { cell, chips, expectAccessible, mouseDrag, open, shot, watchErrors } from './helpers';

// The "done when" for the text panel: a new user writes KIP-101 scenario 2 as text from memory, line by
// line, with the timeline following each line; fixes a typo from the error shown at its line (the timeline
// keeps the last scenario that read); drags a chip and sees the text change; undoes; imports the same text as
// a .txt file. The same text runs with the CLI (`epochlab run scenario2.txt -v hw-truncation -v kip-279`):
// hw-truncation breaks I3 and I4 first at step 16, kip-279 holds.

const HEADER = [
  '# KIP-101 scenario 2, from memory',
  'name: Two records at one offset',
  'brokers: A B',
  'variant: hw-truncation',
  'flush: manual',
  '',
];

/** One line per step, with a comment or two as a person writes them. */
const EVENTS = [
  'elect A',
  'produce m1',
  'fetch B',
  'fetch B   # B learns HW 1',
  'flush A',
  'flush B',
  'produce m2',
  'fetch B',
  'fetch B',
  'flush A   # only A has m2 on disk',
  'crash A power no-notify',
  'crash B power no-notify',
  'restart B',
  'elect B',
  'shrink_isr A',
  'produce m3',
  'restart A',
  'fetch A',
  'fetch A',
];
const TYPO_STEP = 10;
const SCENARIO_2 = [...HEADER, ...EVENTS].join('\n') + '\n';

function input(page: Page) {
  return page.getByTestId('text-input');
}

async function openText(page: Page) {
  await page.getByTestId('text-toggle').click();
  await expect(page.getByTestId('text-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(input(page)).toBeVisible();
}

/** Replaces the whole text with the header, then writes each event line, checking the timeline follows. */
async function writeScenario2(page: Page) {
  await input(page).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(HEADER.join('\n') + '\n');
  await expect(chips(page)).toHaveCount(0);
  await expect(page.getByTestId('headline')).toContainText('Two records at one offset');
  for (const [i, line] of EVENTS.entries()) {
    await test.step(`line ${HEADER.length + i + 1}: ${line}`, async () => {
      if (i === TYPO_STEP) return typoThenFix(page, line, i);
      await page.keyboard.type(line + '\n');
      await expect(chips(page)).toHaveCount(i + 1);
    });
  }
}

/** Writes `crsh` for `crash`: the error names its line, the timeline keeps its steps; fixing it applies it. */
async function typoThenFix(page: Page, line: string, step: number) {
  const lineNumber = HEADER.length + step + 1;
  await page.keyboard.type(line.replace('crash', 'crsh'));
  const error = page.getByTestId('text-error');
  await expect(error).toContainText(`line ${lineNumber}, column 1: unknown event kind 'crsh' (did you mean 'crash'?)`);
  await expect(page.getByTestId('text-error-line')).toHaveAttribute('data-line', String(lineNumber));
  await expect(error).toHaveAttribute('aria-live', 'polite');
  await expect(chips(page)).toHaveCount(step);
  await expect(input(page)).toHaveValue(new RegExp(`\\ncrsh A power no-notify$`));
  await page.getByTestId('text-panel').screenshot({ path: test.info().outputPath('text-error.png') });
  await expectAccessible(page, 'the text panel with an error');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('a');
  await expect(chips(page)).toHaveCount(step + 1);
  await expect(error).toHaveText('');
  await expect(page.getByTestId('text-error-line')).toHaveCount(0);
  await page.keyboard.press('End');
  await page.keyboard.type('\n');
}

test.describe('the text panel', () => {
  test('writing KIP-101 scenario 2 as text, a typo fixed, a drag, undo and a .txt import', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page);
    await expect(page.getByTestId('text-panel')).toBeHidden();
    await openText(page);
    // It opens on the landing scenario, as the formatter writes it.
    await expect(input(page)).toHaveValue(/^name: KIP-101 scenario 1: a committed record lost\n/);
    await writeScenario2(page);
    await expect(chips(page)).toHaveCount(19);
    await expect(page.getByTestId('chip-13')).toContainText('Elect B');
    await expect(page.getByTestId('headline')).toContainText('hw-truncation breaks I3 (divergence after truncation) at step 16');
    await expect(page.getByTestId('headline')).toContainText('kip-279 holds every invariant');
    // The user's own comments and spacing stay: the text reads as the scenario on screen.
    await expect(input(page)).toHaveValue(SCENARIO_2);
    await shot(page, testInfo, 'text-desktop');

    await test.step('the text cursor selects its step, and the selected step marks its line', async () => {
      await page.keyboard.press('Control+Home');
      for (let i = 0; i < HEADER.length + 3; i++) await page.keyboard.press('ArrowDown');
      await expect(page.getByTestId('cursor-position')).toContainText('Step 3 of 18');
      await expect(page.getByTestId('text-cursor-line')).toHaveAttribute('data-line', String(HEADER.length + 4));
      await page.getByTestId('cursor-forward').click();
      await expect(page.getByTestId('text-cursor-line')).toHaveAttribute('data-line', String(HEADER.length + 5));
    });

    await test.step('a drag rewrites the text, and undo brings it back', async () => {
      // Step 9 (flush A) onto B's lane: the text becomes the formatter's, with "flush B" at step 9.
      await mouseDrag(page, page.getByTestId('chip-9'), cell(page, 1, 9), 'left');
      await expect(input(page)).toHaveValue(/\nflush B\ncrash A power no-notify\n/);
      await expect(input(page)).not.toHaveValue(/# KIP-101/);
      await page.getByTestId('undo').click();
      await expect(input(page)).toHaveValue(/\nflush A\ncrash A power no-notify\n/);
      await expect(chips(page)).toHaveCount(19);
      // The last line typed was one edit: undoing it takes one step away, and the text follows.
      await page.getByTestId('undo').click();
      await expect(chips(page)).toHaveCount(18);
      await expect(input(page)).toHaveValue(/\nrestart A\nfetch A\n$/);
      await page.getByTestId('redo').click();
      await expect(chips(page)).toHaveCount(19);
    });

    await test.step('a .txt file and pasted text import like JSON', async () => {
      await page.locator('summary', { hasText: 'Share, embed, export and import' }).click();
      const file = SCENARIO_2.replace('name: Two records at one offset', 'name: From a text file');
      await page.getByTestId('import-file').setInputFiles({ name: 'scenario2.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
      await expect(page.getByTestId('notice')).toContainText('Imported "From a text file"');
      await expect(chips(page)).toHaveCount(19);
      await expect(input(page)).toHaveValue(/^name: From a text file\n/);
      await page.getByTestId('import-text').fill('brokers: A B\nelect A\ncrsh A\n');
      await page.getByTestId('import-paste').click();
      await expect(page.getByTestId('notice')).toContainText("line 3, column 1: unknown event kind 'crsh' (did you mean 'crash'?)");
      await expect(chips(page)).toHaveCount(19);
      await page.getByTestId('import-text').fill('name: Pasted\nbrokers: A B\nelect A\n');
      await page.getByTestId('import-paste').click();
      await expect(chips(page)).toHaveCount(1);
      await expect(input(page)).toHaveValue('name: Pasted\nbrokers: A B\nvariant: hw-truncation\n\nelect A\n');
      const download = page.waitForEvent('download');
      await page.getByTestId('export-txt').click();
      expect((await download).suggestedFilename()).toMatch(/\.txt$/);
    });
    errors.check();
  });

  test('on a 375 px phone the panel stacks under the timeline and edits it', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await open(page);
    await openText(page);
    const box = (await page.getByTestId('text-panel').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    const timeline = (await page.locator('.timeline').boundingBox())!;
    expect(box.y).toBeGreaterThan(timeline.y + timeline.height - 1);
    await input(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('settle\n');
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('cursor-position')).toContainText('Step 10 of 10');
    // The choice is remembered.
    await page.reload();
    await expect(page.getByTestId('text-input')).toBeVisible();
    await expect(input(page)).toHaveValue(/\nsettle\n$/);
    await input(page).scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'text-phone');
    await page.screenshot({ path: testInfo.outputPath('text-phone-screen.png') });
    await expectAccessible(page, 'the text panel on a phone');
    errors.check();
  });
});
