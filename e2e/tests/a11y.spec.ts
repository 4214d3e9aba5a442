import { expect, Page, test } from '@playwright/test';
import { chips, expectAccessible, open, PHONE, watchErrors } from './helpers';

// Issue #11: axe-core (WCAG 2.2 A and AA) on every state the playground reaches. A serious or critical
// violation fails; the rest is printed.

/** Every event kind, in the groups whose editors one test checks. */
const EDITOR_GROUPS = [['produce', 'fetch', 'settle', 'crash', 'restart'], ['elect', 'deliver', 'shrink_isr', 'shutdown'],
  ['checkpoint_hw', 'flush', 'consume', 'zombie']];

const PANELS = ['Configuration: variants, brokers, cluster settings', 'Messages: a sequence diagram of the shown variants',
  'Find the shortest failure (model checker) and shrink a scenario',
  'Name, description and My scenarios', 'Share, embed, export and import'];

/** Every panel of the full page open, the text panel too. */
async function openPanels(page: Page) {
  for (const summary of PANELS) await page.locator('summary', { hasText: summary }).click();
  const text = page.getByTestId('text-toggle');
  if ((await text.getAttribute('aria-expanded')) !== 'true') await text.click();
  await expect(page.locator('#text-panel')).toBeVisible();
}

/** Places a palette chip at the end with the keyboard, on the first lane that takes it. */
async function placeAtEnd(page: Page, kind: string) {
  const before = await chips(page).count();
  await page.getByTestId(`palette-${kind}`).focus();
  await page.keyboard.press('Enter');
  for (let lane = 0; lane < 4; lane++) {
    if (!(await page.getByTestId('placing-help').textContent())!.includes('Refused')) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveCount(before + 1);
}

/** axe on a placement under way (the keyboard's), then on the notice a deletion leaves. */
async function placingAndNotice(page: Page, scheme: string, placed: number) {
  await page.getByTestId('palette-crash').focus();
  await page.keyboard.press('Enter');
  await expectAccessible(page, `${scheme}: keyboard placing`);
  await page.keyboard.press('Escape');
  await page.getByTestId(`chip-${placed - 1}`).focus();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('notice')).toBeVisible();
  await expectAccessible(page, `${scheme}: a deletion notice`);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`in ${scheme} mode`, () => {
    test.beforeEach(async ({ page }) => page.emulateMedia({ colorScheme: scheme }));

    test('the landing page, every panel open, and each step', async ({ page }) => {
      // Four axe runs, one with every panel open: over one test's default allowance on a loaded machine.
      test.setTimeout(60_000);
      const errors = watchErrors(page);
      await open(page);
      await expectAccessible(page, `${scheme}: landing`);
      await openPanels(page);
      await expectAccessible(page, `${scheme}: panels open`);
      await page.keyboard.press('Home');
      await expectAccessible(page, `${scheme}: before the first step`);
      await page.getByTestId('step-5').click();
      await expectAccessible(page, `${scheme}: step 5`);
      errors.check();
    });

    // The editors in three groups, one test each, so that none needs more than half its timeout on a loaded
    // machine (thirteen editors in one test took 84 s of its 120 s with two browser jobs beside it).
    for (const [group, kinds] of EDITOR_GROUPS.entries()) {
      test(`the event editors of ${kinds.join(', ')}, placed with the keyboard`, async ({ page }) => {
        const errors = watchErrors(page);
        await open(page);
        await page.getByTestId('new-scenario').click();
        await expect(chips(page)).toHaveCount(0);
        for (const kind of kinds) await placeAtEnd(page, kind);
        for (let i = 0; i < kinds.length; i++) {
          await page.getByTestId(`chip-${i}`).click();
          await expect(page.getByTestId('editor')).toBeVisible();
          await expectAccessible(page, `${scheme}: editor of ${kinds[i]}`);
        }
        if (group === EDITOR_GROUPS.length - 1) await placingAndNotice(page, scheme, kinds.length);
        errors.check();
      });
    }
  });
}

test.describe('on a 375 px phone', () => {
  test.use(PHONE);

  test('the landing page and its panels', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await expectAccessible(page, 'phone: landing');
    await openPanels(page);
    await expectAccessible(page, 'phone: panels open');
    errors.check();
  });
});

test('a lesson: the Learn panel, a question, its misconception, and the compact lesson embed', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('learn-toggle').click();
  await expect(page.getByTestId('lesson-committed-record-lost')).toBeVisible();
  await expectAccessible(page, 'the Learn panel');
  await page.getByTestId('lesson-committed-record-lost').click();
  for (let i = 0; i < 3; i++) await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('paint-submit')).toBeVisible();
  await expectAccessible(page, 'a lesson question (paint the log)');
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('misconception')).toBeVisible();
  await expectAccessible(page, 'a wrong answer and its misconception');
  await page.goto('about:blank');
  await page.goto('./#lesson=committed-record-lost&step=4&embed=lesson');
  await expect(page.getByTestId('lesson-counter')).toHaveText('Step 4 of 10');
  await expectAccessible(page, 'the lesson embed');
  errors.check();
});

test('the embeds, view and edit', async ({ page }) => {
  const errors = watchErrors(page);
  for (const mode of ['view', 'edit']) {
    await page.goto(`./#embed=${mode}`);
    await expect(page.getByTestId('embed')).toBeVisible();
    await expectAccessible(page, `embed ${mode}`);
  }
  errors.check();
});
