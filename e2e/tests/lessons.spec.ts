import { expect, Locator, Page, test, TestInfo } from '@playwright/test';
import { chips, expectNoSidewaysScroll, open, PHONE, shot, visit, watchErrors } from './helpers';

/** Opens the Learn panel (its module and lesson list load on first use). */
async function openLearn(page: Page) {
  await page.getByTestId('learn-toggle').click();
  await expect(page.getByTestId('learn-panel')).toBeVisible();
  await expect(page.getByTestId('lesson-committed-record-lost')).toBeVisible();
}

/** A tap on an element brought to the middle of the screen, clear of the phone's docked palette. */
async function tap(target: Locator) {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await target.tap();
}

const counter = (page: Page) => page.getByTestId('lesson-counter');
const next = (page: Page) => page.getByTestId('lesson-next');

// Undo after "Show me", on a lesson walked with Next alone. (Undo once landed on an empty scenario: a click in
// the lessons' module also ran the page's listener of the same number, "New scenario"; see lessons_app::start.)
test('Undo after "Show me" takes the solution back and the task is graded again', async ({ page }) => {
  test.setTimeout(60_000);
  await open(page);
  await openLearn(page);
  await page.getByTestId('lesson-committed-record-lost').click();
  for (let i = 0; i < 8; i++) {
    const choice = page.locator('[data-testid^="choice-"], [data-testid="paint-submit"]').first();
    if (await next(page).isDisabled()) await choice.click();
    await next(page).click();
  }
  await expect(counter(page)).toHaveText('Step 9 of 10');
  // "Try it yourself" sets the lesson aside but keeps the task's goal in sight.
  await page.getByTestId('try-it').click();
  await expect(page.getByTestId('aside-task-goal')).toContainText('untick "Drop the response"');
  await page.getByTestId('lesson-resume').click();
  await page.getByTestId('show-me').click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'true');
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'false', { timeout: 3000 });
  await expect(page.getByTestId('chip-0')).toBeVisible({ timeout: 3000 });
});

test('lesson 2 done fully with the mouse: a wrong prediction names its misconception, right ones advance', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await open(page);
  await openLearn(page);
  await page.getByTestId('lesson-committed-record-lost').click();
  await expect(counter(page)).toHaveText('Step 1 of 10');
  // The explanation points at B's row.
  await expect(page.locator('.log-grid__label.lesson-mark').first()).toBeVisible();
  await next(page).click();
  await next(page).click();
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 4 of 10');
  // Stopped before step 8: the cursor is on step 7.
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  await expect(next(page)).toBeDisabled();
  await shot(page, testInfo, 'lesson2-predict-desktop');
  // Wrong: paints nothing, so both records survive.
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'follower-hw-is-current');
  await expect(page.getByTestId('lesson-live')).toContainText('Not quite');
  await expect(page.getByTestId('step-8')).toHaveAttribute('aria-current', 'step');
  await shot(page, testInfo, 'lesson2-reveal-desktop');
  await next(page).click();
  await next(page).click();
  // Right: nothing at offset 1, then yes, an invariant fails.
  await page.getByTestId('choice-nothing').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await next(page).click();
  await page.getByTestId('choice-yes').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await next(page).click();
  await next(page).click();
  await expect(counter(page)).toHaveText('Step 9 of 10');
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'false');
  const timeline = () => chips(page).evaluateAll((cs) => cs.map((c) => `${c.getAttribute('title')} ${c.textContent}`));
  await expect(chips(page)).toHaveCount(10);
  const mine = await timeline();
  await page.getByTestId('show-me').click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'true');
  expect(await timeline()).not.toEqual(mine);
  // Undo takes the solution back to the learner's own timeline as it was (not an empty one), Redo brings it again.
  await page.getByTestId('undo').click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'false');
  await expect(page.getByTestId('headline')).toContainText('KIP-101 scenario 1');
  await expect(chips(page)).toHaveCount(10);
  expect(await timeline()).toEqual(mine);
  await page.getByTestId('redo').click();
  await expect(page.getByTestId('task-state')).toHaveAttribute('data-passed', 'true');
  await next(page).click();
  await expect(page.getByTestId('variant-kip-279')).toBeVisible();
  await next(page).click();
  await expect(page.getByTestId('lesson-done')).toContainText('Takeaway');
  // Progress survives a reload.
  await page.getByTestId('lesson-leave').click();
  await expect(page).not.toHaveURL(/lesson=/);
  await page.reload();
  await openLearn(page);
  await expect(page.getByTestId('lesson-state-committed-record-lost')).toHaveText('done');
  errors.check();
});

test('lesson 3 with the keyboard only', async ({ page }) => {
  await open(page);
  await visit(page, '#lesson=two-records-at-one-offset&step=1');
  await expect(counter(page)).toHaveText('Step 1 of 8');
  // Space presses the focused button (as Enter does, which a real keyboard user may use instead).
  const press = async (testid: string) => {
    await page.getByTestId(testid).focus();
    await page.keyboard.press('Space');
  };
  for (const n of [2, 3, 4]) {
    await press('lesson-next');
    await expect(counter(page)).toHaveText(`Step ${n} of 8`);
  }
  await expect(counter(page)).toHaveText('Step 4 of 8');
  // Paint on A's row with the keyboard: from offset 0, the arrow key moves to offset 1 and Space marks it
  // truncated, then again surviving (the page neither steps nor plays meanwhile).
  const cell = (o: number) => page.getByTestId(`cell-hw-truncation-A-${o}`);
  await expect(cell(1)).toHaveAttribute('data-paint', 'keep');
  await cell(0).focus();
  await page.keyboard.press('ArrowRight');
  await expect(cell(1)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(cell(1)).toHaveAttribute('data-paint', 'cut');
  await expect(cell(1)).toHaveAttribute('aria-label', /you say it is truncated/);
  await expect(page.getByTestId('lesson-live')).toContainText('offset 1 (m2) is truncated');
  await page.keyboard.press('Space');
  await expect(cell(1)).toHaveAttribute('data-paint', 'keep');
  await expect(page.getByTestId('cursor-play')).toHaveAttribute('aria-pressed', 'false');
  await press('paint-submit');
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await press('lesson-next');
  await expect(counter(page)).toHaveText('Step 5 of 8');
  await press('lesson-next');
  await expect(counter(page)).toHaveText('Step 6 of 8');
  await press('choice-yes');
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'hw-marks-lineage');
  await press('lesson-next');
  await expect(counter(page)).toHaveText('Step 7 of 8');
  await press('choice-yes');
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await press('lesson-next');
  await expect(counter(page)).toHaveText('Step 8 of 8');
  await press('lesson-next');
  await expect(page.getByTestId('lesson-done')).toBeVisible();
});

test('a deep link opens a lesson at its step, and the address follows the lesson', async ({ page }) => {
  await open(page);
  await visit(page, '#lesson=committed-record-lost&step=6');
  await expect(counter(page)).toHaveText('Step 6 of 10');
  await expect(page.getByTestId('lesson-prompt')).toContainText('offset 1');
  // Once the page has written the lesson's scenario into the address too (after its edits pause).
  await expect(page).toHaveURL(/#s=.*&lesson=committed-record-lost&step=6/);
  await page.getByTestId('lesson-back').click();
  await expect(counter(page)).toHaveText('Step 5 of 10');
  await expect(page).toHaveURL(/lesson=committed-record-lost&step=5/);
});

test('a corrupt stored progress resets with a notice and breaks nothing', async ({ page }) => {
  await open(page);
  await page.evaluate(() => localStorage.setItem('epochlab.lessons.v1', '{not json'));
  await visit(page, '#lesson=log-end-and-high-watermark&step=1');
  await expect(page.getByText('lesson progress could not be read')).toBeVisible();
  await expect(counter(page)).toHaveText('Step 1 of 9');
});

test('lesson 9 on a 375 px touch screen: acks=all and min ISR, and still two records at one offset', async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await open(page);
  await tap(page.getByTestId('learn-toggle'));
  await tap(page.getByTestId('lesson-min-insync-replicas'));
  await expect(counter(page)).toHaveText('Step 1 of 7');
  await expect(page.getByTestId('lesson')).toContainText('every write sent with acks=all');
  await tap(next(page));
  await tap(next(page));
  await expect(counter(page)).toHaveText('Step 3 of 7');
  await shot(page, testInfo, 'lesson9-predict-phone');
  // Wrong: m3, the leader's record. A keeps its own m2: the HW says nothing about who wrote offset 1.
  await tap(page.getByTestId('choice-m3'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'hw-marks-lineage');
  await tap(next(page));
  await expect(counter(page)).toHaveText('Step 4 of 7');
  await tap(page.getByTestId('choice-no'));
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'min-isr-prevents');
  await shot(page, testInfo, 'lesson9-reveal-phone');
  await expect(page.getByTestId('counter-scenario')).toContainText('acks=all and min.insync.replicas = 2');
  await tap(page.getByTestId('counter-scenario'));
  await expect(page.getByTestId('lesson-aside')).toBeVisible();
  await tap(page.getByTestId('lesson-resume'));
  await expect(counter(page)).toHaveText('Step 4 of 7');
  // Back from the counter-scenario, the question is asked again: the right answer advances.
  await tap(page.getByTestId('choice-yes'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  for (const n of [5, 6, 7]) {
    await tap(next(page));
    await expect(counter(page)).toHaveText(`Step ${n} of 7`);
    if (n === 6) await expect(page.getByTestId('lesson')).toContainText('Since Kafka 3.7 (KAFKA-15583)');
  }
  // On a phone the compared variants are shown one at a time: kip-101 is there, behind the switch.
  await expect(page.getByTestId('variant-kip-101')).toBeAttached();
  await tap(next(page));
  await expect(page.getByTestId('lesson-done')).toBeVisible();
  await expect(page.getByTestId('lesson-sources').getByRole('link', { name: 'KAFKA-15583' })).toHaveAttribute('href', 'https://issues.apache.org/jira/browse/KAFKA-15583');
  await expectNoSidewaysScroll(page);
  await context.close();
});

/** Lesson 12, Kafka today, with the mouse or by touch: the 3.7 HW gate, 3.6 against 4.1, and its sources. */
async function kafkaToday(page: Page, testInfo: TestInfo, size: 'desktop' | 'phone') {
  const press = (target: Locator) => (size === 'phone' ? tap(target) : target.click());
  await visit(page, '#lesson=kafka-today&step=1');
  await expect(counter(page)).toHaveText('Step 1 of 9');
  await expect(page.getByTestId('headline')).toContainText('Last replica standing');
  await press(next(page));
  // Under 3.7, A alone in the ISR holds its HW at 1 although it accepted m2.
  await expect(page.getByTestId('headline')).toContainText('Kafka 3.7: min ISR holds the HW');
  // The marker has no value, and nothing can be submitted, until the learner moves it (a value it started
  // on could be the answer).
  await expect(page.getByTestId('hw-value')).toHaveText('HW ?');
  await expect(page.getByTestId('hw-submit')).toBeDisabled();
  await page.getByTestId('hw-slider').fill('1');
  await expect(page.getByTestId('hw-value')).toHaveText('HW 1');
  await press(page.getByTestId('hw-submit'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await press(next(page));
  await expect(counter(page)).toHaveText('Step 3 of 9');
  await expect(page.getByTestId('elr-diverging-epoch-B')).toBeVisible();
  await press(next(page));
  // Kafka 3.6: A leads again and B loses m2.
  await expect(page.getByTestId('headline')).toContainText('under Kafka 3.6');
  await press(page.getByTestId('choice-m2'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'last-replica-is-safe');
  await expect(page.getByTestId('misconception')).toContainText('Eligible Leader Replicas');
  await press(next(page));
  // Kafka 4.1: nobody leads until B is back.
  await press(page.getByTestId('choice-none'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await shot(page, testInfo, `lesson12-${size}`);
  await press(next(page));
  await press(next(page));
  await page.getByTestId('hw-slider').fill('2');
  await press(page.getByTestId('hw-submit'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await press(next(page));
  await press(next(page));
  // The same events side by side under 3.6 and 4.1.
  await expect(counter(page)).toHaveText('Step 9 of 9');
  await expect(page.getByTestId('release-3.6-lost')).toHaveText('m2 (allowed)');
  await press(next(page));
  await expect(page.getByTestId('lesson-done')).toContainText('since 4.1');
  const kip = page.getByTestId('lesson-sources').getByRole('link', { name: /^KIP-966/ });
  await expect(kip).toHaveAttribute('href', 'https://cwiki.apache.org/confluence/display/KAFKA/KIP-966+-+Eligible+Leader+Replicas');
}

test('lesson 12, Kafka today, with the mouse: the min-ISR HW gate and Eligible Leader Replicas', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page);
  await kafkaToday(page, testInfo, 'desktop');
  errors.check();
});

test('lesson 13: what a consumer past a truncation meets, before 2.3 and since', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page);
  await visit(page, '#lesson=consumers-notice-truncation&step=2');
  await expect(counter(page)).toHaveText('Step 2 of 5');
  await expect(page.getByTestId('headline')).toContainText('Kafka 2.2');
  // Wrong under 2.2: consumers began to check their position only in 2.3.
  await page.getByTestId('choice-validated').click();
  await expect(page.getByTestId('misconception')).toHaveAttribute('data-misconception', 'consumers-always-validated');
  await next(page).click();
  await page.getByTestId('choice-validated').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await next(page).click();
  await expect(page.getByTestId('reads-diverging-epoch')).toContainText('LogTruncationException');
  await shot(page, testInfo, 'lesson13-desktop');
  await next(page).click();
  await page.getByTestId('choice-nothing').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await next(page).click();
  await expect(page.getByTestId('lesson-sources').getByRole('link', { name: 'KAFKA-7747' })).toBeVisible();
  errors.check();
});

test('lesson 12 on a 375 px touch screen', async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await open(page);
  await kafkaToday(page, testInfo, 'phone');
  await expectNoSidewaysScroll(page);
  await context.close();
});

test('a lesson embedded in a blog post plays in its frame and keeps nothing', async ({ page }) => {
  await open(page);
  await page.goto('./embed-example.html');
  const frame = page.frameLocator('#lesson');
  await expect(frame.getByTestId('lesson-counter')).toHaveText('Step 1 of 10');
  await frame.getByTestId('lesson-next').click();
  await expect(frame.getByTestId('lesson-counter')).toHaveText('Step 2 of 10');
  await expect(frame.getByTestId('open-in-epochlab')).toHaveAttribute('href', /#lesson=committed-record-lost&step=2$/);
  expect(await page.evaluate(() => localStorage.getItem('epochlab.lessons.v1'))).toBeNull();
});

test('lesson 10 by deep link: paint what B keeps when its new leader was elected without writes', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await visit(page, '#lesson=hardening-and-diverging-epoch&step=3');
  await expect(counter(page)).toHaveText('Step 3 of 11');
  await expect(page.getByTestId('headline')).toContainText('Lesson 10: a leader elected without writes');
  await expect(page.getByTestId('lesson-prompt')).toContainText('where epoch 1 ends');
  // Stopped before step 7, B's fetch: the cursor is on step 6, A's election in epoch 2.
  await expect(page.getByTestId('step-6')).toHaveAttribute('aria-current', 'step');
  // Under kip-279 A answers UNDEFINED and B falls back to its HW 0: both r0 and r1 go.
  // The row is paintable once the page draws its cells as kept (the question reaches it from the module).
  await expect(page.getByTestId('cell-kip-279-B-0')).toHaveAttribute('data-paint', 'keep');
  await page.getByTestId('cell-kip-279-B-0').click();
  await expect(page.getByTestId('cell-kip-279-B-0')).toHaveAttribute('data-paint', 'cut');
  await page.getByTestId('cell-kip-279-B-1').click();
  await expect(page.getByTestId('cell-kip-279-B-1')).toHaveAttribute('data-paint', 'cut');
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  await shot(page, testInfo, 'lesson10-reveal-desktop');
  await next(page).click();
  await expect(page.locator('.lesson__text')).toContainText('UNDEFINED');
  errors.check();
});

/** Lesson 11's question on the leader's-HW strawman, with the mouse or by touch: wrong first, then, back from
 * its counter-scenario, right. */
async function quizQuestion(page: Page, testInfo: TestInfo, size: 'desktop' | 'phone') {
  const press = (target: Locator) => (size === 'phone' ? tap(target) : target.click());
  await visit(page, '#lesson=misconceptions-quiz&step=6');
  await expect(counter(page)).toHaveText('Step 6 of 7');
  // The question runs its own story, not the lesson's.
  await expect(page.getByTestId('headline')).toContainText('Why truncating to the leader');
  await expect(page.getByTestId('lesson-prompt')).toContainText('fixes it');
  await shot(page, testInfo, `lesson11-predict-${size}`);
  await press(page.getByTestId('choice-nothing'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  const belief = page.getByTestId('misconception');
  await expect(belief).toHaveAttribute('data-misconception', 'leader-hw-fixes');
  await expect(belief).toContainText('commit boundary too');
  await expect(page.getByTestId('counter-scenario')).toContainText('Why truncating to the leader');
  await shot(page, testInfo, `lesson11-reveal-${size}`);
  await press(page.getByTestId('counter-scenario'));
  await expect(page.getByTestId('lesson-aside')).toBeVisible();
  await press(page.getByTestId('lesson-resume'));
  await expect(counter(page)).toHaveText('Step 6 of 7');
  await expect(page.getByTestId('headline')).toContainText('Why truncating to the leader');
  await press(page.getByTestId('choice-m2'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  // The last question runs three brokers with every election clean; answered right, the quiz ends.
  await press(next(page));
  await expect(page.getByTestId('headline')).toContainText('Three brokers, every election clean');
  await press(page.getByTestId('choice-yes'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await press(next(page));
  await expect(page.getByTestId('lesson-done')).toContainText('Takeaway');
}

test('lesson 11 by deep link: a wrong answer shows its misconception and counter-scenario, the right one ends the quiz', async ({ page }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await quizQuestion(page, testInfo, 'desktop');
  errors.check();
});

test('lesson 11 on a 375 px touch screen', async ({ browser }, testInfo) => {
  test.setTimeout(60_000);
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await open(page);
  await quizQuestion(page, testInfo, 'phone');
  await expectNoSidewaysScroll(page);
  await context.close();
});

test('the Learn panel lists lessons 10 and 11 with their progress', async ({ page }) => {
  await open(page);
  await visit(page, '#lesson=misconceptions-quiz&step=2');
  await expect(counter(page)).toHaveText('Step 2 of 7');
  await page.getByTestId('lesson-leave').click();
  await openLearn(page);
  await expect(page.getByTestId('lesson-hardening-and-diverging-epoch')).toBeVisible();
  await expect(page.getByTestId('lesson-state-misconceptions-quiz')).toContainText('in progress');
});

/** What the page says while a question waits, in place of every whole-scenario verdict. */
const NEUTRAL = "The outcome shows once the lesson's question about it is answered";

/** Nothing on the page states the outcome of the step asked about (step 8 of lesson 2: A truncates m2). */
async function expectNothingGivenAway(page: Page) {
  await expect(page.getByTestId('headline')).toContainText(NEUTRAL);
  await expect(page.getByTestId('headline')).not.toContainText(/breaks|holds/);
  await expect(page.getByTestId('verdict-hw-truncation')).toHaveText(`${NEUTRAL}.`);
  await expect(page.locator('[data-testid^="violation-"]')).toHaveCount(0);
  // The scenario's description tells the story to its end.
  await expect(page.getByTestId('description')).toHaveCount(0);
  // The cursor stays on step 7: A's log still holds m2, nothing shows as truncated, and the diagram and the
  // consumer strip end there.
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('variant-hw-truncation')).not.toContainText(/truncated/i);
  await expect(page.getByTestId('spoken')).not.toContainText(/truncated|breaks|lost/i);
  await expect(page.getByTestId('cursor-position')).toContainText('step 8 waits for your prediction');
}

test('on the explanations before a question, the page shows the story only up to that question', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  // Lesson 2's first step explains step 4; its first question asks about step 8 (A truncates m2).
  await visit(page, '#lesson=committed-record-lost&step=1');
  await expect(counter(page)).toHaveText('Step 1 of 10');
  await expect(page.getByTestId('headline')).toContainText(NEUTRAL);
  await expect(page.getByTestId('verdict-hw-truncation')).toHaveText(`${NEUTRAL}.`);
  await expect(page.getByTestId('description')).toHaveCount(0);
  await expect(page.getByTestId('step-4')).toHaveAttribute('aria-current', 'step');
  // End stops before the step the question asks about.
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  // No question is on screen yet: the page says the lesson asks further on, not "answer it".
  await expect(page.getByTestId('notice')).toContainText('The lesson asks about step 8 further on: go on in the lesson panel');
  await expect(page.getByTestId('cursor-position')).toContainText("step 8 waits for the lesson's question");
  errors.check();
});

test('while a question waits, the page gives nothing away and nothing steps past it (mouse and keys)', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  await open(page);
  await visit(page, '#lesson=committed-record-lost&step=4');
  await expect(counter(page)).toHaveText('Step 4 of 10');
  await expectNothingGivenAway(page);
  await page.getByText('Messages: a sequence diagram').click();
  await expect(page.getByTestId('seq-diagram')).toBeVisible();
  await expect(page.getByTestId('seq-diagram')).not.toContainText(/truncated/i);
  // The checker's Shrink would name the broken invariant and why: it waits too (a search may run).
  await page.getByTestId('checker').locator('summary').click();
  await expect(page.getByTestId('checker-shrink')).toBeDisabled();
  await expect(page.getByTestId('checker-shrink-waits')).toContainText("waits for the lesson's question");
  await expect(page.getByTestId('checker-run')).toBeEnabled();
  await shot(page, testInfo, 'question-waits-desktop');
  // Every way forward is refused, and says why (the banner and the live region).
  const refused = async () => {
    await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
    await expect(page.getByTestId('notice')).toContainText("The lesson's question is about step 8: answer it");
    await expect(page.getByTestId('spoken')).toContainText("The lesson's question is about step 8: answer it");
    await page.getByLabel('Dismiss this notice').click();
  };
  await page.getByTestId('cursor-forward').click();
  await refused();
  await page.getByTestId('cursor-end').click();
  await refused();
  // A later chip opens its event (its outcome is not shown either); the step above it would go there.
  await page.getByTestId('chip-9').click();
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  await page.getByTestId('step-9').click();
  await refused();
  await page.getByTestId('cursor-scrub').fill('9');
  await refused();
  await page.getByTestId('headline').click();
  for (const key of ['ArrowRight', 'End']) {
    await page.keyboard.press(key);
    await refused();
  }
  // Before the question the cursor moves freely; End from the start stops before it, and so does playback.
  await page.keyboard.press('Home');
  await expect(page.getByTestId('cursor-position')).toContainText('Before the first step');
  await page.keyboard.press('End');
  await refused();
  await page.getByTestId('cursor-play').click();
  await refused();
  await expect(page.getByTestId('cursor-play')).toHaveAttribute('aria-pressed', 'false');
  await expectNothingGivenAway(page);
  // The answer lets the step play, and the verdicts come back.
  // Painted on A's row: a click switches offset 1 to truncated.
  await page.getByTestId('cell-hw-truncation-A-1').click();
  await expect(page.getByTestId('cell-hw-truncation-A-1')).toHaveAttribute('data-paint', 'cut');
  await expect(page.getByTestId('paint-marks')).toContainText('offset 1 (m2) is truncated');
  await shot(page, testInfo, 'question-painted-desktop');
  await page.getByTestId('paint-submit').click();
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await expect(page.getByTestId('step-8')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('headline')).not.toContainText(NEUTRAL);
  await expect(page.getByTestId('description')).toContainText('truncates to that stale HW');
  await expect(page.getByTestId('verdict-hw-truncation')).not.toHaveText(`${NEUTRAL}.`);
  await expect(page.getByTestId('checker-shrink')).toBeEnabled();
  await expect(page.getByTestId('checker-shrink-waits')).toHaveCount(0);
  await page.getByTestId('cursor-end').click();
  await expect(page.getByTestId('step-9')).toHaveAttribute('aria-current', 'step');
  await shot(page, testInfo, 'question-answered-desktop');
  errors.check();
});

test('while a question waits on a 375 px touch screen, nothing gives it away and a tap cannot step past it', async ({ browser }, testInfo) => {
  test.setTimeout(60_000);
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await open(page);
  await visit(page, '#lesson=committed-record-lost&step=4');
  await expect(counter(page)).toHaveText('Step 4 of 10');
  await expectNothingGivenAway(page);
  await shot(page, testInfo, 'question-waits-phone');
  await tap(page.getByTestId('step-9'));
  await expect(page.getByTestId('step-7')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('notice')).toContainText("The lesson's question is about step 8: answer it");
  // A tap on A's row paints offset 1 truncated, a second keeps it again.
  const m2 = page.getByTestId('cell-hw-truncation-A-1');
  await tap(m2);
  await expect(m2).toHaveAttribute('data-paint', 'cut');
  await shot(page, testInfo, 'question-painted-phone');
  await tap(m2);
  await expect(m2).toHaveAttribute('data-paint', 'keep');
  await tap(page.getByTestId('paint-submit'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'false');
  await expect(page.getByTestId('step-8')).toHaveAttribute('aria-current', 'step');
  await expect(page.getByTestId('headline')).not.toContainText(NEUTRAL);
  await context.close();
});

test('on a 375 px phone a paint question is answered beside its button, and the row in the logs follows', async ({ browser }, testInfo) => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await open(page);
  await visit(page, '#lesson=committed-record-lost&step=4');
  await expect(counter(page)).toHaveText('Step 4 of 10');
  // The lesson is on the first screen, and the offsets to paint sit right above "Check my prediction".
  await expect(page.getByTestId('lesson')).toBeInViewport();
  const offset1 = page.getByTestId('paint-offset-1');
  await expect(offset1).toContainText('m2');
  await expect(offset1).toHaveAttribute('aria-pressed', 'true');
  await tap(offset1);
  await expect(offset1).toHaveAttribute('aria-pressed', 'false');
  await expect(offset1).toContainText('truncated');
  await expect(page.getByTestId('cell-hw-truncation-A-1')).toHaveAttribute('data-paint', 'cut');
  const [row, submit] = [await offset1.boundingBox(), await page.getByTestId('paint-submit').boundingBox()];
  expect(submit!.y - (row!.y + row!.height)).toBeLessThan(120);
  await shot(page, testInfo, 'paint-row-phone');
  await tap(page.getByTestId('paint-submit'));
  await expect(page.getByTestId('outcome')).toHaveAttribute('data-right', 'true');
  await expect(offset1).toBeDisabled();
  errors.check();
  await context.close();
});

test('on a 900 px desktop a step that marks a cell below the fold brings it into view, the lesson still on screen', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = watchErrors(page);
  await open(page);
  // Lesson 9's second step marks B's offset 1 in three brokers' logs, below the timeline.
  await visit(page, '#lesson=min-insync-replicas&step=2');
  await expect(counter(page)).toHaveText('Step 2 of 7');
  const marks = page.locator('.lesson-mark');
  await expect(marks).not.toHaveCount(0);
  for (const mark of await marks.all()) await expect(mark).toBeInViewport();
  await expect(page.getByTestId('lesson-counter')).toBeInViewport();
  await shot(page, testInfo, 'mark-in-view-desktop');
  errors.check();
});

test('lesson 12 sets the same events side by side under Kafka 3.6 and 4.1, on a desktop and a 375 px phone', async ({ page, browser }, testInfo) => {
  const errors = watchErrors(page);
  await open(page);
  await visit(page, '#lesson=kafka-today&step=9');
  await expect(counter(page)).toHaveText('Step 9 of 9');
  const table = page.getByTestId('release-compare');
  await expect(table).toContainText('Kafka 3.6');
  await expect(table).toContainText('Kafka 4.1');
  await expect(page.getByTestId('release-3.6-leader')).toHaveText('A');
  await expect(page.getByTestId('release-4.1-leader')).toHaveText('B');
  await expect(page.getByTestId('release-3.6-lost')).toHaveText('m2 (allowed)');
  await expect(page.getByTestId('release-4.1-lost')).toHaveText('none');
  await expect(page.getByTestId('release-4.1-log-B')).toContainText('m2');
  await expect(page.getByTestId('release-3.6-log-B')).not.toContainText('m2');
  await shot(page, testInfo, 'release-compare-desktop');
  errors.check();
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  await open(phone);
  await visit(phone, '#lesson=kafka-today&step=9');
  await expect(phone.getByTestId('release-compare')).toBeVisible();
  await expectNoSidewaysScroll(phone);
  await shot(phone, testInfo, 'release-compare-phone');
  await context.close();
});
