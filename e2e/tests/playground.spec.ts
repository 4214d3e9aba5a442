import { expect, test } from '@playwright/test';
import { cell, chips, laneOf, mouseDrag, open, shot, touchDrag, watchErrors } from './helpers';

test.describe('the playground', () => {
  test('the landing page shows the committed-data loss under hw-truncation only', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await expect(page.getByTestId('headline')).toContainText('hw-truncation breaks I1 (committed-data loss) at step 9');
    await expect(page.getByTestId('headline')).toContainText('kip-279 holds every invariant');
    await expect(page.getByTestId('verdict-hw-truncation')).toHaveText('fails I1, I2, I4, I5');
    await expect(page.getByTestId('verdict-kip-279')).toHaveText('no invariant fails');
    // A badge says what it covers and what each invariant it names is.
    await expect(page.getByTestId('verdict-hw-truncation')).toHaveAttribute('title', /every step of this scenario.*I1 \(committed-data loss\)/);
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
    // A leads with only m1 under the old rule; m2 is marked lost. Under kip-279 A kept m2.
    await expect(page.getByTestId('cell-hw-truncation-A-1')).toHaveAttribute('data-status', 'lost');
    await expect(page.getByTestId('cell-kip-279-A-1')).toHaveAttribute('data-status', 'committed');
    await expect(page.getByTestId('cell-kip-279-A-1')).toContainText('m2');
    await expect(page.getByTestId('violation-hw-truncation-I1')).toContainText('m2 at offset 1 was committed');
    await expect(page.getByTestId('step-8')).toHaveAttribute('title', /variants part ways/);
    await shot(page, testInfo, 'landing');
    errors.check();
  });

  test('dragging a Crash chip onto broker B with pointer events takes B down and changes the run', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    const before = await page.getByTestId('verdict-kip-279').textContent();
    await expect(chips(page)).toHaveCount(10);
    // Drop between steps 6 and 7 (the left half of step 7's cell) on B's lane (lane 1).
    await mouseDrag(page, page.getByTestId('palette-crash'), cell(page, 1, 7), 'left');
    await expect(chips(page)).toHaveCount(11);
    const crash = page.getByTestId('chip-7');
    await expect(crash).toHaveAttribute('data-kind', 'crash');
    await expect.poll(() => laneOf(crash)).toBe('1');
    await page.getByTestId('step-7').click();
    await expect(page.getByTestId('role-kip-279-B')).toHaveText('down');
    await expect(page.getByTestId('role-hw-truncation-B')).toHaveText('down');
    await expect(page.getByTestId('narration-kip-279')).toContainText("B's process crashes");
    // B led: A is elected at step 7, so A's silent crash and restart follow; the run differs from before.
    await expect(page.getByTestId('role-kip-279-A')).toHaveText('leader');
    expect(await page.getByTestId('verdict-kip-279').textContent()).not.toBeNull();
    await expect(page.getByTestId('headline')).not.toContainText('at step 9, and 3 more');
    expect(before).toBe('no invariant fails');
    await shot(page, testInfo, 'after-crash-drop');
    errors.check();
  });

  test('a refused drop says why and changes nothing; a rejected event shows Kafka\'s reason', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    // Hover a Fetch over the cluster lane (lane 2): the indicator refuses it.
    const source = page.getByTestId('palette-fetch');
    const target = cell(page, 2, 3);
    const s = (await source.boundingBox())!;
    const t = (await target.boundingBox())!;
    await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
    await page.mouse.down();
    await page.mouse.move(t.x + 10, t.y + t.height / 2, { steps: 10 });
    await expect(page.getByTestId('drop-indicator')).toContainText('a fetch needs a broker');
    await expect(page.getByTestId('drag-ghost')).toBeVisible();
    await page.mouse.up();
    await expect(chips(page)).toHaveCount(10);
    // A fetch dropped on B, the leader, is placed but rejected when the scenario runs.
    await mouseDrag(page, page.getByTestId('palette-fetch'), cell(page, 1, 'end'));
    await expect(page.getByTestId('chip-10-reason')).toHaveText('BROKER_NOT_AVAILABLE');
    errors.check();
  });

  test('a chip moves to another step and to another broker', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    // The consume (step 6, cluster lane) moves before step 1: it now reads an empty log at step 1.
    await mouseDrag(page, page.getByTestId('chip-6'), cell(page, 2, 1), 'left');
    await expect(page.getByTestId('chip-1')).toHaveAttribute('data-kind', 'consume');
    await expect(page.getByTestId('chip-2')).toHaveAttribute('data-kind', 'produce');
    await expect(chips(page)).toHaveCount(10);
    // B's crash (step 9) moves to A's lane at the same step.
    await mouseDrag(page, page.getByTestId('chip-9'), cell(page, 0, 9), 'left');
    await expect.poll(() => laneOf(page.getByTestId('chip-9'))).toBe('0');
    await expect(page.getByTestId('chip-9')).toHaveAttribute('data-kind', 'crash');
    await page.getByTestId('step-9').click();
    await expect(page.getByTestId('role-kip-279-A')).toHaveText('down');
    errors.check();
  });

  test('a chip is deleted by dropping it off the timeline, or with the Delete key', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('chip-6'), page.getByTestId('headline'));
    await expect(chips(page)).toHaveCount(9);
    await expect(page.getByTestId('violation-hw-truncation-I5')).toHaveCount(0);
    await page.getByTestId('chip-0').focus();
    await page.keyboard.press('Delete');
    await expect(chips(page)).toHaveCount(8);
    await expect(page.getByTestId('chip-0')).toHaveAttribute('data-kind', 'produce');
    await expect(page.getByTestId('chip-0-reason')).toHaveText('LEADER_NOT_AVAILABLE');
    errors.check();
  });

  test('an event is placed with the keyboard alone', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await page.getByTestId('palette-crash').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('placing-help')).toContainText("Placing new Crash on broker A's lane, at the end (step 10).");
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('placing-help')).toContainText('Refused here: a crash needs a broker');
    await page.keyboard.press('ArrowUp');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('placing-help')).toContainText("on broker B's lane, before step 7 (crash of A).");
    await page.keyboard.press('Enter');
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('chip-7')).toHaveAttribute('data-kind', 'crash');
    await expect.poll(() => laneOf(page.getByTestId('chip-7'))).toBe('1');
    // Escape abandons a placement.
    await page.getByTestId('palette-flush').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(chips(page)).toHaveCount(11);
    // An existing chip moves with M, the arrows and Enter.
    await page.getByTestId('chip-7').focus();
    await page.keyboard.press('m');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => laneOf(page.getByTestId('chip-7'))).toBe('0');
    errors.check();
  });

  test('a held arrow key moves a step per repeat, without the animations, and back and forth keeps its order', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const position = page.getByTestId('cursor-position');
    const scrubbing = () => page.evaluate(() => document.documentElement.hasAttribute('data-scrubbing'));
    await page.keyboard.press('Home');
    await expect(position).toHaveText('Before the first step');
    // A held key: a keydown, then its repeats, closer together than the page draws. Sent and read within
    // one moment of the page (the mark at once, the arrived cell as soon as it is drawn, far within the 800 ms
    // the mark lasts), so no pause of a loaded machine can end the scrub before it is read.
    const held = await page.evaluate(async () => {
      for (let i = 0; i < 2; i++) {
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', repeat: i > 0, bubbles: true }));
      }
      const scrubbing = document.documentElement.hasAttribute('data-scrubbing');
      const slide = getComputedStyle(document.querySelector('.marker')!).transitionProperty;
      let cell = document.querySelector('.cell--changed');
      for (let frames = 0; !cell && frames < 30; frames++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        cell = document.querySelector('.cell--changed');
      }
      const arrived = cell ? getComputedStyle(cell) : null;
      // The arrival is kept but ended at once: removing the mark must not start it late.
      return { scrubbing, slide, arrival: arrived && `${arrived.animationName} ${arrived.animationDuration}` };
    });
    await expect(position).toHaveText('Step 1 of 9: produce');
    expect(held, 'steps closer than 250 ms mark the page as scrubbing').toEqual({ scrubbing: true, slide: 'none', arrival: 'cell-arrive 0s' });
    await page.evaluate(() => {
      for (let i = 0; i < 4; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', repeat: true, bubbles: true }));
    });
    await expect(position).toHaveText('Step 5 of 9: fetch');
    // Both ways, back to back: the moves keep their order (5 right from step 5 stop at the last step, 9, and
    // 2 left then reach 7; their sum, 3 right, would reach 8).
    await page.evaluate(() => {
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft']) {
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      }
    });
    await expect(position).toHaveText('Step 7 of 9: crash');
    // The scrub ends a pause after the last step; a single step then animates again.
    await expect.poll(scrubbing).toBe(false);
    await page.keyboard.press('ArrowRight');
    await expect(position).toHaveText('Step 8 of 9: restart');
    expect(await scrubbing()).toBe(false);
    await expect(page.locator('.marker').first()).toHaveCSS('transition-property', 'translate');
    errors.check();
  });

  test('the cursor steps, scrubs and plays', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const position = page.getByTestId('cursor-position');
    await page.keyboard.press('Home');
    await expect(position).toHaveText('Before the first step');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(position).toHaveText('Step 1 of 9: produce');
    await page.keyboard.press('ArrowLeft');
    await expect(position).toHaveText('Step 0 of 9: elect');
    await page.getByTestId('cursor-scrub').fill('5');
    await expect(position).toHaveText('Step 5 of 9: fetch');
    await expect(page.getByTestId('narration-kip-279')).toContainText('the response is lost');
    await page.getByTestId('step-8').click();
    await expect(position).toHaveText('Step 8 of 9: restart');
    await page.keyboard.press('End');
    await expect(position).toHaveText('Step 9 of 9: crash');
    await page.getByTestId('cursor-speed').selectOption('2');
    await page.getByTestId('cursor-play').click();
    // Play from the last step starts again from the beginning. Any step short of the end shows that: one
    // step lasts 500 ms at this speed, which can fall between two polls of an assertion on a single step.
    await expect(position).toHaveText(/^(Before the first step|Step [0-8] of 9)/, { timeout: 5000 });
    await expect(page.getByTestId('cursor-play')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press(' ');
    await expect(page.getByTestId('cursor-play')).toHaveAttribute('aria-pressed', 'false');
    const paused = await position.textContent();
    await page.waitForTimeout(1200);
    await expect(position).toHaveText(paused!);
    await page.getByTestId('cursor-play').click();
    await expect(position).toHaveText('Step 9 of 9: crash', { timeout: 10000 });
    await expect(page.getByTestId('cursor-play')).toHaveAttribute('aria-pressed', 'false');
    errors.check();
  });

  test('a long story: the logs and the timeline follow the cursor and draw what is scrolled into view', async ({
    page,
  }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    // 121 steps: an election, then 60 rounds of produce and settle on A and B (A's log reaches offset 59).
    const events: object[] = [{ kind: 'elect' }];
    for (let i = 1; i <= 60; i++) events.push({ kind: 'produce', record: `m${i}` }, { kind: 'settle' });
    const scenario = { version: 1, name: 'Sixty records', brokers: ['A', 'B'], config: { variant: 'kip-279' }, events };
    await page.evaluate(
      (v) => localStorage.setItem('epochlab.working.v1', v),
      JSON.stringify({ scenario, variants: ['kip-279'], cursor: 120 }),
    );
    // The address holds the scenario shown (a reload would open it): open the page without a link.
    await page.goto('./');
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 120 of 120: settle');
    const grid = page.locator('[data-testid="variant-kip-279"] .log-grid__scroll');
    const inView = async (testid: string) => {
      const [g, c] = [await grid.boundingBox(), await page.getByTestId(testid).boundingBox()];
      return !!g && !!c && c.x >= g.x - 1 && c.x + c.width <= g.x + g.width + 1;
    };
    // At the end, the newest offsets are in view and the headings still are; early offsets are not even drawn.
    await expect.poll(() => inView('cell-kip-279-A-59')).toBe(true);
    await expect(page.getByTestId('role-kip-279-A')).toBeInViewport();
    await expect(page.getByTestId('cell-kip-279-A-0')).toHaveCount(0);
    await shot(page, testInfo, 'long-log-end');
    // Back to the first produce: the view follows it to offset 0, and the timeline to step 1.
    await page.getByTestId('cursor-scrub').fill('1');
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 1 of 120: produce');
    await expect.poll(() => inView('cell-kip-279-A-0')).toBe(true);
    await expect(page.getByTestId('step-1')).toBeInViewport();
    await expect(page.getByTestId('cell-kip-279-A-0')).toHaveAttribute('data-status', 'uncommitted');
    // Back at the end, scrolling the log by hand draws the offsets that come into view.
    await page.keyboard.press('End');
    await expect.poll(() => inView('cell-kip-279-A-59')).toBe(true);
    await grid.evaluate((el) => (el.scrollLeft = 0));
    await expect.poll(() => inView('cell-kip-279-A-0')).toBe(true);
    await expect(page.getByTestId('cell-kip-279-A-0')).toHaveAttribute('data-status', 'committed');
    await expect(page.getByTestId('step-120')).toBeInViewport();
    errors.check();
  });

  test('variants and brokers can be changed', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await page.getByText('Configuration: variants, brokers, cluster settings').click();
    await page.getByTestId('variant-toggle-kip-101').check();
    await expect(page.getByTestId('variant-kip-101')).toBeVisible();
    await expect(page.getByTestId('verdict-kip-101')).toHaveText('no invariant fails');
    await page.getByTestId('variant-toggle-hw-truncation').uncheck();
    await expect(page.getByTestId('variant-hw-truncation')).toHaveCount(0);
    await page.getByTestId('broker-add').click();
    await expect(page.getByTestId('lane-C')).toBeVisible();
    await expect(page.getByTestId('broker-kip-279-C')).toBeVisible();
    await page.getByTestId('broker-name-C').fill('carol');
    await page.getByTestId('broker-name-C').press('Enter');
    await expect(page.getByTestId('lane-carol')).toBeVisible();
    await page.getByTestId('broker-remove-A').click();
    await expect(page.getByTestId('lane-A')).toHaveCount(0);
    await expect(page.getByTestId('notice')).toContainText('Removed broker A and its 5 event(s)');
    await page.getByTestId('config-unclean').selectOption('on');
    await expect(page.getByTestId('config-unclean')).toHaveValue('on');
    await shot(page, testInfo, 'config');
    errors.check();
  });

  test('the scenario survives a reload, and a corrupt stored value falls back with a notice', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    await page.reload();
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('chip-10')).toHaveAttribute('data-kind', 'flush');
    await page.evaluate(() => localStorage.setItem('epochlab.working.v1', '{"scenario": 42'));
    // Without a link in the address (a reload opens the address's link, which holds the scenario shown).
    await page.goto('./');
    await expect(page.getByTestId('notice')).toContainText('could not be read');
    await expect(chips(page)).toHaveCount(10);
    errors.check();
  });

  test('a reload right after an edit opens the edit, not the link the address held before it', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    // Once edits pause the address holds the link of what is shown; a drop leaves it there until the next pause.
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
    const before = await page.evaluate(() => location.hash);
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    await page.reload();
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('chip-10')).toHaveAttribute('data-kind', 'flush');
    // The stale link left the address (or the new one had been written already): the next pause writes it.
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
    expect(await page.evaluate(() => location.hash)).not.toBe(before);
    // Another link put into the address right after an edit is opened (the page reloads for it), not taken
    // for this page's own stale one.
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(12);
    await page.evaluate((h) => (location.hash = h), before);
    await expect(page.getByTestId('chip-10')).toHaveCount(0);
    await expect(chips(page)).toHaveCount(10);
    errors.check();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });

  test('an event is placed with touch: tap and drag', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await shot(page, testInfo, 'phone-landing');
    // A tap on a palette chip starts a placement (finished by tapping a gap, or with Escape).
    await page.getByTestId('palette-flush').tap();
    await expect(page.getByTestId('placing-help')).toContainText('Placing new Flush: tap a gap');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('placing-help')).toHaveText('');
    // Drag a Crash from the docked palette onto B's lane, at the end.
    await touchDrag(page, page.getByTestId('palette-crash'), cell(page, 1, 'end'));
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('chip-10')).toHaveAttribute('data-kind', 'crash');
    await expect.poll(() => laneOf(page.getByTestId('chip-10'))).toBe('1');
    // Move an existing chip by touch, after a long press: B's crash (step 9) to A's lane.
    await touchDrag(page, page.getByTestId('chip-9'), cell(page, 0, 9), 'left', 450);
    await expect.poll(() => laneOf(page.getByTestId('chip-9'))).toBe('0');
    await shot(page, testInfo, 'phone-after-drop');
    errors.check();
  });
});
