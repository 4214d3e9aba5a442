import { expect, Page, test, TestInfo } from '@playwright/test';
import { cell, chips, laneOf, mouseDrag, open, shot, touchDrag, watchErrors } from './helpers';

// The acceptance story: a new user rebuilds KIP-101 scenario 2 (a double power loss that leaves two
// different records at one offset) from an empty scenario, once per input method, and sees the divergence
// under hw-truncation and the reconciliation under kip-279.
//
// The same 19 events, checked first with the CLI (`epochlab run FILE -v hw-truncation -v kip-279`): they
// differ from the preset `kip101-scenario-2` only in the default record labels (r0, r1, r2 instead of m1, m2,
// m3) and in the first elect, which leaves the choice to the controller (it picks A, first in assignment
// order). hw-truncation: BUG I3 I4 (first at step 16), A holds r1 at offset 1 where leader B holds r2.
// kip-279: no invariant fails beyond what Kafka allows; A and B both hold r0, r2.

/** Lanes: the brokers in order, then the cluster lane. */
const A = 0;
const B = 1;
const CLUSTER = 2;
const LANE_NAMES = ['A', 'B', 'cluster'];

const EVENTS: [kind: string, lane: number][] = [
  ['elect', CLUSTER], // 0: the controller picks A
  ['produce', CLUSTER], // 1: r0
  ['fetch', B], // 2
  ['fetch', B], // 3: B learns HW 1
  ['flush', A], // 4
  ['flush', B], // 5
  ['produce', CLUSTER], // 6: r1
  ['fetch', B], // 7
  ['fetch', B], // 8: r1 committed, B learns HW 2
  ['flush', A], // 9: only A has r1 on disk
  ['crash', A], // 10: power loss, silent
  ['crash', B], // 11: power loss, silent: B loses r1
  ['restart', B], // 12
  ['elect', B], // 13: candidate B
  ['shrink_isr', A], // 14
  ['produce', CLUSTER], // 15: r2 at offset 1 on B
  ['restart', A], // 16
  ['fetch', A], // 17
  ['fetch', A], // 18
];
const CRASHES = [10, 11];
const LAST = EVENTS.length - 1;

/** The summary of the configuration panel's <details> (other panels share its class). */
function configSummary(page: Page) {
  return page.locator('summary', { hasText: 'Configuration: variants, brokers, cluster settings' });
}

/** Places every event at the end of the timeline with `place`, checking each lands where it was meant to. */
async function build(page: Page, place: (kind: string, lane: number) => Promise<void>) {
  for (const [i, [kind, lane]] of EVENTS.entries()) {
    await test.step(`place ${kind} on ${LANE_NAMES[lane]} (step ${i})`, async () => {
      await place(kind, lane);
      await expect(chips(page)).toHaveCount(i + 1);
      const chip = page.getByTestId(`chip-${i}`);
      await expect(chip).toHaveAttribute('data-kind', kind);
      expect(await laneOf(chip), `step ${i} (${kind}) lane`).toBe(String(lane));
    });
  }
  await expect(page.getByTestId('chip-13')).toContainText('Elect B');
}

/** After selecting a crash chip (its editor open), the editor shows that step. */
async function expectEditorOn(page: Page, i: number) {
  await expect(page.getByTestId('editor')).toHaveAttribute('aria-label', `Edit step ${i}`);
}

/** The crashes were edited: both are power losses that do not tell the controller. */
async function expectCrashesEdited(page: Page) {
  for (const i of CRASHES) {
    await expect(page.getByTestId(`chip-${i}`)).toContainText('Power loss, silent');
  }
}

/** The record label shown in a log cell (the cell also shows the record's epoch). */
function label(page: Page, variant: string, broker: string, offset: number) {
  return page.getByTestId(`cell-${variant}-${broker}-${offset}`).locator('.cell__label');
}

// Known UI bug, reported rather than hidden: a new (empty) scenario's cursor is "before the first step", and
// inserting events never moves it (src/model/edits.rs: `was_at_end` needs `self.cursor.is_some()`, and Insert's
// `cursor_after` maps `None` to `None`), so while the user builds, the panels keep showing the initial state.
// Each test therefore moves the cursor to the last step itself, as a user would once they notice.

/** The verdicts and logs of the final state, a screenshot, and no console errors. */
async function expectOutcome(page: Page, testInfo: TestInfo, name: string) {
  await expect(chips(page)).toHaveCount(EVENTS.length);
  await expect(page.getByTestId('cursor-position')).toHaveText(`Step ${LAST} of ${LAST}: fetch`);
  await expect(page.getByTestId('headline')).toContainText('hw-truncation breaks I3 (divergence after truncation) at step 16');
  await expect(page.getByTestId('headline')).toContainText('kip-279 holds every invariant');

  // hw-truncation: A kept r1 at offset 1 (its HW covered it), where leader B wrote r2 after the crashes.
  await expect(page.getByTestId('verdict-hw-truncation')).toContainText('I3');
  await expect(label(page, 'hw-truncation', 'A', 0)).toHaveText('r0');
  await expect(label(page, 'hw-truncation', 'A', 1)).toHaveText('r1');
  await expect(page.getByTestId('cell-hw-truncation-A-1')).toHaveAttribute('data-status', 'divergent');
  await expect(label(page, 'hw-truncation', 'B', 1)).toHaveText('r2');
  // The leader's cell at that offset is marked too (its title also says r1 was committed there and is gone).
  await expect(page.getByTestId('cell-hw-truncation-B-1')).toHaveAttribute('data-status', 'divergent');
  await expect(page.getByTestId('role-hw-truncation-B')).toHaveText('leader');
  await expect(page.getByTestId('violation-hw-truncation-I3')).toContainText('A holds r1 (epoch 0) at offset 1');

  // kip-279: A truncated to the epoch boundary and fetched r2: both logs are r0, r2.
  await expect(page.getByTestId('verdict-kip-279')).toHaveText('no invariant fails');
  for (const broker of ['A', 'B']) {
    await expect(label(page, 'kip-279', broker, 0)).toHaveText('r0');
    await expect(label(page, 'kip-279', broker, 1)).toHaveText('r2');
  }
  await expect(page.getByTestId('cell-kip-279-A-0')).toHaveAttribute('data-status', 'committed');
  await expect(page.getByTestId('cell-kip-279-A-1')).not.toHaveAttribute('data-status', 'divergent');
  await expect(page.getByTestId('cell-kip-279-A-1')).toHaveAttribute('data-status', 'committed');
  await expect(page.getByTestId('cell-kip-279-A-2')).toHaveCount(0);
  await expect(page.getByTestId('role-kip-279-A')).toHaveText('follows B');
  await shot(page, testInfo, name);
}

test.describe('KIP-101 scenario 2, rebuilt from an empty scenario', () => {
  test.describe('with a mouse', () => {
    test.use({ viewport: { width: 1280, height: 900 } });

    test('by dragging palette chips with the mouse', async ({ page }, testInfo) => {
      const errors = watchErrors(page);
      await open(page);
      await page.getByTestId('new-scenario').click();
      await expect(chips(page)).toHaveCount(0);
      await expect(page.getByTestId('lane-A')).toBeVisible();
      await expect(page.getByTestId('lane-B')).toBeVisible();
      await expect(page.getByTestId('variant-hw-truncation')).toBeVisible();
      await expect(page.getByTestId('variant-kip-279')).toBeVisible();
      await configSummary(page).click();
      await page.getByTestId('config-flush').selectOption('manual');
      await expect(page.getByTestId('config-flush')).toHaveValue('manual');

      await build(page, (kind, lane) => mouseDrag(page, page.getByTestId(`palette-${kind}`), cell(page, lane, 'end')));

      for (const i of CRASHES) {
        await page.getByTestId(`chip-${i}`).click();
        await expectEditorOn(page, i);
        await page.getByTestId('editor-power').click();
        await expect(page.getByTestId('editor-power')).toBeChecked();
        await page.getByTestId('editor-notify').click();
        await expect(page.getByTestId('editor-notify')).not.toBeChecked();
      }
      await expectCrashesEdited(page);

      // Show the state after the last step (see the known bug above: the cursor did not follow the drops).
      await page.getByTestId(`step-${LAST}`).click();
      await expectOutcome(page, testInfo, 'scenario2-mouse');
      errors.check();
    });
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });

    test('by dragging palette chips with touch', async ({ page }, testInfo) => {
      const errors = watchErrors(page);
      await open(page);
      await page.getByTestId('new-scenario').tap();
      await expect(chips(page)).toHaveCount(0);
      await configSummary(page).tap();
      await page.getByTestId('config-flush').selectOption('manual');
      await expect(page.getByTestId('config-flush')).toHaveValue('manual');

      await build(page, (kind, lane) => touchDrag(page, page.getByTestId(`palette-${kind}`), cell(page, lane, 'end')));
      // touchDrag lifts the finger while it still moves fast, so Chromium starts a fling (and boosts it with each
      // drop in the same direction). A tap during a fling only stops it and clicks nothing (Chromium's tap
      // suppression, as on Android): after these 19 drops, every tap within a few seconds would be lost. A finger
      // that rests before lifting starts no fling. Stop it the way a phone user does: one tap on something inert.
      await page.getByTestId('lane-A').tap();

      for (const i of CRASHES) {
        await page.getByTestId(`chip-${i}`).tap();
        await expectEditorOn(page, i);
        await page.getByTestId('editor-power').tap();
        await expect(page.getByTestId('editor-power')).toBeChecked();
        await page.getByTestId('editor-notify').tap();
        await expect(page.getByTestId('editor-notify')).not.toBeChecked();
      }
      await expectCrashesEdited(page);

      // Show the state after the last step (see the known bug above).
      await page.getByTestId(`step-${LAST}`).tap();
      // The page itself never scrolls sideways on a phone: only the timeline does.
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
      await expectOutcome(page, testInfo, 'scenario2-touch');
      errors.check();
    });
  });

  test.describe('with the keyboard alone', () => {
    test.use({ viewport: { width: 1280, height: 900 } });

    test('by placing palette chips with Enter and the arrow keys', async ({ page }, testInfo) => {
      const errors = watchErrors(page);
      await open(page);
      const press = (key: string) => page.keyboard.press(key);

      await page.getByTestId('new-scenario').focus();
      await press('Enter');
      await expect(chips(page)).toHaveCount(0);

      // Open the configuration panel from its summary, then Tab to the Flush select and choose "manual".
      await configSummary(page).focus();
      await press('Enter');
      await expect(configSummary(page).locator('..')).toHaveAttribute('open', '');
      const flush = page.getByTestId('config-flush');
      for (let i = 0; i < 40; i++) {
        if (await flush.evaluate((el) => el === document.activeElement)) break;
        await press('Tab');
      }
      await expect(flush).toBeFocused();
      await press('ArrowDown');
      await expect(flush).toHaveValue('manual');

      await build(page, async (kind, lane) => {
        await page.getByTestId(`palette-${kind}`).focus();
        await press('Enter');
        await expect(page.getByTestId('placing-help')).toContainText(`on broker A's lane, at the end (step ${await chips(page).count()}).`);
        for (let l = 0; l < lane; l++) await press('ArrowDown');
        await press('Enter');
      });

      for (const i of CRASHES) {
        await page.getByTestId(`chip-${i}`).focus();
        await press('Enter');
        await expectEditorOn(page, i);
        await page.getByTestId('editor-power').focus();
        await press('Space');
        await expect(page.getByTestId('editor-power')).toBeChecked();
        await page.getByTestId('editor-notify').focus();
        await press('Space');
        await expect(page.getByTestId('editor-notify')).not.toBeChecked();
      }
      await expectCrashesEdited(page);

      // Leave the checkbox, then End shows the state after the last step (see the known bug above).
      await page.getByTestId(`chip-${LAST}`).focus();
      await press('End');
      await expectOutcome(page, testInfo, 'scenario2-keyboard');
      errors.check();
    });
  });
});
