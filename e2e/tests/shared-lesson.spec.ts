import { readFileSync } from 'node:fs';
import { expect, Page, test } from '@playwright/test';
import { expectNoSidewaysScroll, open, PHONE, shot, visit, watchErrors } from './helpers';

// Issue 25: an author's lesson travels whole in a link (`#lesson=~…`, made by `epochlab lesson link`; the
// CLI's tests check that these files are its output), is taken as a learner takes a shipped one, shows
// its words as text, and keeps its progress apart.

const fixture = (name: string) => readFileSync(`${__dirname}/../fixtures/${name}.link`, 'utf8').trim();
const EXAMPLE = fixture('acks-one-lost-on-failover');
const HOSTILE = fixture('hostile-lesson');

const counter = (page: Page) => page.getByTestId('lesson-counter');
const next = (page: Page) => page.getByTestId('lesson-next');
const progress = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('epochlab.lessons.v1') ?? '{"lessons":{}}').lessons);

test('a shared lesson opens from its link, its question is graded, and its progress is kept apart', async ({ page, browser }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await visit(page, EXAMPLE);
  await expect(page.locator('#lesson-title')).toHaveText('An acks=1 write lost on failover');
  await expect(counter(page)).toHaveText('Step 1 of 4');
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 2 of 4');
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 3 of 4');
  await expect(page.getByTestId('lesson-prompt')).toContainText("Paint A's log");
  // A keeps m1 and gives m2 up: offset 1 painted truncated.
  const m2 = page.getByTestId('cell-kip-279-A-1');
  await expect(m2).toHaveAttribute('data-paint', 'keep');
  await m2.click();
  await expect(m2).toHaveAttribute('data-paint', 'cut');
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await shot(page, testInfo, 'shared-lesson-graded-desktop');
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 4 of 4');
  await next(page).click();
  await expect(counter(page)).toHaveText('Done');
  // The address keeps the lesson inline, at its step (written once the page pauses).
  const inline = EXAMPLE.replace('#lesson=', '').replace('&step=1', '');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain(`lesson=${inline}&step=5`);
  expect(await progress(page)).toEqual({ 'shared:acks-one-lost-on-failover': { step: 4, done: true } });
  errors.check();

  // A second reader, in a browser of their own, opens the same link and is graded too (wrong, here).
  const other = await browser.newContext();
  const reader = await other.newPage();
  await reader.goto(`./${EXAMPLE.replace('&step=1', '&step=3')}`);
  await expect(counter(reader)).toHaveText('Step 3 of 4');
  await reader.getByTestId('paint-submit').click();
  await expect(reader.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  await other.close();
});

test('on a 375 px phone, what a shared lesson says is shown as text, never run, and a shipped id keeps its own progress', async ({ browser }, testInfo) => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await open(page);
  await visit(page, HOSTILE);
  const title = page.locator('#lesson-title');
  await expect(title).toHaveText('<img src=x onerror="window.__hostile=1"> An author\'s <b>lesson</b>');
  await expect(page.locator('.lesson__text').first()).toContainText('<script>window.__hostile = 1</script> A leads');
  await expect(page.getByTestId('lesson').locator('img, b, script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __hostile?: number }).__hostile)).toBeUndefined();
  await shot(page, testInfo, 'shared-lesson-text-phone');
  // Its id is a shipped lesson's; the shipped lesson's progress is not touched.
  const kept = await progress(page);
  expect(kept['committed-record-lost']).toBeUndefined();
  expect(kept['shared:committed-record-lost']).toEqual({ step: 0, done: false });
  await expectNoSidewaysScroll(page);
  errors.check();
  await context.close();
});

test('a shared lesson embeds in an iframe, and a damaged lesson link says why it cannot open', async ({ page }) => {
  await open(page);
  await visit(page, `${EXAMPLE}&embed=lesson`);
  await expect(page.locator('#lesson-title')).toHaveText('An acks=1 write lost on failover');
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 2 of 4');
  expect(await page.evaluate(() => localStorage.getItem('epochlab.lessons.v1'))).toBeNull();
  // One character changed in the middle of the payload.
  const at = EXAMPLE.indexOf('~1') + 40;
  const changed = EXAMPLE.slice(0, at) + (EXAMPLE[at] === 'A' ? 'B' : 'A') + EXAMPLE.slice(at + 1);
  await visit(page, changed);
  await expect(page.getByTestId('notice')).toContainText('The shared lesson in this link could not be opened (the link is damaged');
  await expect(page.getByTestId('lesson')).toHaveCount(0);
  await expect(page.getByTestId('headline')).toBeVisible();
});
