import { Browser, expect, Page, test } from '@playwright/test';
import { expectAccessible, expectNoSidewaysScroll, open, PHONE, shot, watchErrors } from './helpers';

// Issue 25: an author writes a three-step lesson with one prediction in the page, previews it, shares its
// link, and a second browser opens the link and takes the lesson, graded by the simulator.

const status = (page: Page) => page.getByTestId('builder-status');

/** The cursor after step `step` of the landing scenario (KIP-101 scenario 1), with the keyboard. */
async function cursorAt(page: Page, step: number) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Home');
  for (let i = 0; i <= step; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('cursor-position')).toHaveText(new RegExp(`^Step ${step} of`));
}

/** Writes the lesson and returns its link. */
async function write(page: Page, tapOrClick: 'tap' | 'click') {
  const press = async (id: string) => {
    const target = page.getByTestId(id);
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await (tapOrClick === 'tap' ? target.tap() : target.click());
  };
  await open(page);
  await press('learn-toggle');
  await press('write-lesson');
  await expect(page.getByTestId('lesson-builder')).toBeVisible();
  await expect(status(page)).toHaveAttribute('data-ok', 'true');
  // A question about step 8, A's restart: the cursor on step 7.
  await cursorAt(page, 7);
  await press('builder-add-question');
  await expect(page.getByTestId('builder-answers')).toContainText(/^line \d+, steps\[1\], before step 8 under hw-truncation: which of A's offsets survive → keep cut$/);
  // Undone and redone: the builder keeps its own history.
  await press('builder-undo');
  await expect(page.getByTestId('builder-answers')).toHaveCount(0);
  await press('builder-redo');
  await expect(page.getByTestId('builder-answers')).toHaveCount(1);
  await cursorAt(page, 8);
  await press('builder-add-explain');
  // A cell of the logs pointed at is highlighted in the last explanation (the variant a phone shows first).
  const cell = page.getByTestId('cell-hw-truncation-A-0');
  await cell.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await (tapOrClick === 'tap' ? cell.tap() : cell.click());
  await expect(page.getByTestId('builder-text')).toHaveValue(/\nexplain at=8 highlight=A@0: Say what the learner sees here\.\n$/);
  // So are a broker's row and a step's chip (the chip's editor opens too, and is closed).
  await press('broker-hw-truncation-B');
  await press('chip-8');
  await expect(page.getByTestId('builder-text')).toHaveValue(/\nexplain at=8 highlight=A@0,B,#8: Say what the learner sees here\.\n$/);
  await page.keyboard.press('Escape');
  // The author's own words, typed over the placeholders.
  const text = page.getByTestId('builder-text');
  const words = (await text.inputValue())
    .replace('title: KIP-101 scenario 1: a committed record lost', 'title: My stale high watermark')
    .replace('Say what the learner sees here.', 'B leads; A fetches m2 but never hears that it is committed.')
    .replace('Ask the learner your question.', "A restarts under the old rule. Paint A's log: what survives?")
    .replace('Say what the learner sees here.', 'A cut m2: its HW was stale.')
    .replace('The one sentence the learner should leave with.', 'A follower that truncates to its own HW can lose committed records.');
  await text.fill(words);
  await expect(status(page)).toContainText('It checks out: 3 steps, every question answered by the simulator.');
  const questionLine = words.split('\n').findIndex((l) => l.startsWith('predict survivors')) + 1;
  await expect(page.getByTestId('builder-answers')).toHaveText(`line ${questionLine}, steps[1], before step 8 under hw-truncation: which of A's offsets survive → keep cut`);
  // Preview as a learner, then back.
  await press('builder-preview');
  await expect(page.locator('#lesson-title')).toHaveText('My stale high watermark');
  await expect(page.getByTestId('lesson-counter')).toHaveText('Step 1 of 3');
  await press('lesson-back-to-writing');
  await expect(page.getByTestId('builder-text')).toHaveValue(words);
  await press('builder-share');
  await expect(page.getByTestId('builder-link')).toBeVisible();
  await expectAccessible(page, `the lesson builder with its link (${tapOrClick})`);
  const link = await page.getByTestId('builder-link').inputValue();
  expect(link).toMatch(/#lesson=~1[A-Za-z0-9_-]+&step=1$/);
  await expect(page.getByTestId('builder-embed')).toHaveValue(/<iframe src="[^"]*#lesson=~1[^"]*&amp;embed=lesson"/);
  return link;
}

/** A second reader, in a browser context of their own, takes the lesson and is graded. */
async function take(browser: Browser, link: string, phone: boolean) {
  const context = await browser.newContext(phone ? PHONE : {});
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(link);
  await expect(page.locator('#lesson-title')).toHaveText('My stale high watermark');
  await expect(page.getByTestId('lesson-counter')).toHaveText('Step 1 of 3');
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-prompt')).toContainText("Paint A's log");
  const m2 = page.getByTestId('cell-hw-truncation-A-1');
  await expect(m2).toHaveAttribute('data-paint', 'keep');
  await (phone ? m2.tap() : m2.click());
  await expect(m2).toHaveAttribute('data-paint', 'cut');
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  errors.check();
  await context.close();
}

test('an author writes a three-step lesson on a desktop, shares it, and a second browser takes it', async ({ page, browser }, testInfo) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  const link = await write(page, 'click');
  await shot(page, testInfo, 'builder-desktop');
  errors.check();
  // Kept in My scenarios, beside the scenarios; the draft too: a reload and "Write a lesson" bring both back.
  await page.getByTestId('builder-keep').click();
  await expect(page.getByTestId('notice')).toContainText('in My scenarios');
  const kept = await page.getByTestId('builder-text').inputValue();
  await page.reload();
  await page.getByTestId('learn-toggle').click();
  await page.getByTestId('write-lesson').click();
  await expect(page.getByTestId('builder-text')).toHaveValue(kept);
  await page.getByTestId('builder-fresh').click();
  await expect(page.getByTestId('builder-text')).not.toHaveValue(kept);
  await page.getByTestId('builder-close').click();
  await expect(page.getByTestId('lesson-builder')).toHaveCount(0);
  await page.getByTestId('my-scenarios').locator('summary').click();
  const mine = page.getByTestId('my-lesson-kip-101-scenario-1-a-committed');
  await expect(mine).toContainText('My stale high watermark');
  await shot(page, testInfo, 'my-scenarios-with-a-lesson');
  // Removed and put back, then opened in the builder, which comes into view with the kept text.
  await mine.getByTestId('my-lesson-remove').click();
  await expect(mine).toHaveCount(0);
  await expectAccessible(page, 'My scenarios with a lesson removed, to put back');
  await page.getByTestId('my-lesson-restore').click();
  await expect(page.getByTestId('my-lesson-removed')).toHaveCount(0);
  await mine.getByTestId('my-lesson-open').click();
  await expect(page.getByTestId('builder-text')).toHaveValue(kept);
  await expect(page.locator('#builder-title')).toBeFocused();
  await expect(page.locator('#builder-title')).toBeInViewport();
  await take(browser, link, false);
});

test('on a 375 px phone an author writes, shares, and a second phone takes the lesson', async ({ browser }, testInfo) => {
  test.setTimeout(60_000);
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const link = await write(page, 'tap');
  await shot(page, testInfo, 'builder-phone');
  await expectNoSidewaysScroll(page);
  await context.close();
  await take(browser, link, true);
});

test('the builder says what is wrong and where, and shares nothing until it checks out', async ({ page }) => {
  await open(page);
  await page.getByTestId('learn-toggle').click();
  await page.getByTestId('write-lesson').click();
  const text = page.getByTestId('builder-text');
  const lines = (await text.inputValue()).trimEnd().split('\n').length;
  await text.fill(`${await text.inputValue()}predict hw broker=A before=99 variant=kip-279: Where is A's HW?\n`);
  await expect(status(page)).toHaveText(`Not yet a lesson: line ${lines + 1}, column 1: steps[1]: the simulator cannot answer this question`);
  await page.getByTestId('builder-share').click();
  await expect(page.getByTestId('notice')).toContainText('The lesson cannot be shared yet');
  await expect(page.getByTestId('builder-link')).toHaveCount(0);
  await expectAccessible(page, 'the lesson builder with an error');
  await text.fill('lesson: x\ntitel: y\n');
  await expect(status(page)).toHaveText('Not yet a lesson: line 2, column 1: unknown header "titel:" (one of lesson, title, minutes, variants, takeaway, source, preset, or scenario:)');
  // The two texts typed are one edit: Undo brings the lesson back as it opened.
  await page.getByTestId('builder-undo').click();
  await expect(status(page)).toHaveText('It checks out: 1 step, every question answered by the simulator.');
  await page.getByTestId('builder-redo').click();
  await expect(status(page)).toContainText('line 2, column 1');
});
