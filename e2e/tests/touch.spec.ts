import { expect, Locator, Page, test } from '@playwright/test';
import { cell, chips, laneOf, mouseDrag, open, PHONE, watchErrors } from './helpers';

// Issue 10, part 2: phones and touch, refused drops that always say why, and no clipped text.

/** Every timeline chip as "kind@lane", in step order: what a gesture must not change by accident. */
async function timelineState(page: Page): Promise<string[]> {
  return chips(page).evaluateAll((els) =>
    els.map((el) => `${el.getAttribute('data-kind')}@${el.closest('[data-drop-lane]')?.getAttribute('data-drop-lane')}`),
  );
}

/** The middle of an element, scrolled to the middle of the screen (clear of the phone's docked palette). */
async function centre(target: Locator) {
  await target.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  const b = (await target.boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** A real touch sequence through Chromium's input pipeline: press, optionally rest, then slide and lift. */
async function touchGesture(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, restMs = 0) {
  const client = await page.context().newCDPSession(page);
  await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  if (restMs) await page.waitForTimeout(restMs);
  for (let i = 1; i <= 12; i++) {
    const p = { x: from.x + ((to.x - from.x) * i) / 12, y: from.y + ((to.y - from.y) * i) / 12 };
    await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  // Rest before lifting, so that Chromium starts no fling that would swallow the next tap.
  await page.waitForTimeout(100);
  await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await client.detach();
}

/** Every element matched whose text overflows its box, as "what: text (scroll > client)". */
async function clipped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
      .map((el) => `${el.className}: ${el.textContent} (${el.scrollWidth}x${el.scrollHeight} > ${el.clientWidth}x${el.clientHeight})`),
  );
}

const TEXT = '.timeline__cell, .timeline .chip, .chip__label, .chip__reason, .badge, .drop-indicator__why, .verdict, .variant-switch__button';

/** The box of `inner` lies inside the box of `outer` (to the pixel). */
async function expectInside(inner: Locator, outer: Locator) {
  const i = (await inner.boundingBox())!;
  const o = (await outer.boundingBox())!;
  expect(i.x, 'left edge').toBeGreaterThanOrEqual(o.x - 1);
  expect(i.y, 'top edge').toBeGreaterThanOrEqual(o.y - 1);
  expect(i.x + i.width, 'right edge').toBeLessThanOrEqual(o.x + o.width + 1);
  expect(i.y + i.height, 'bottom edge').toBeLessThanOrEqual(o.y + o.height + 1);
}

test.describe('on a 375 px touch screen', () => {
  test.use(PHONE);

  test('a scroll that starts on a chip scrolls the page or the timeline and moves no chip', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const before = await timelineState(page);
    // Up: the page scrolls.
    const start = await centre(page.getByTestId('chip-3'));
    const scrollY = await page.evaluate(() => window.scrollY);
    await touchGesture(page, start, { x: start.x, y: start.y - 220 });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrollY + 50);
    expect(await timelineState(page)).toEqual(before);
    // Sideways: the timeline scrolls.
    const scroller = page.locator('.timeline__scroll');
    const left = await scroller.evaluate((el) => el.scrollLeft);
    const from = await centre(page.getByTestId('chip-5'));
    await touchGesture(page, from, { x: from.x - 200, y: from.y });
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(left + 50);
    expect(await timelineState(page)).toEqual(before);
    await expect(page.getByTestId('drag-ghost')).toHaveCount(0);
    await expect(page.getByTestId('notice')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/touch-scroll-375.png' });
    errors.check();
  });

  test('a long press lifts a chip, which then moves with the finger', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const from = await centre(page.getByTestId('chip-9'));
    const target = cell(page, 0, 9);
    const t = (await target.boundingBox())!;
    const client = await page.context().newCDPSession(page);
    await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    // Lifted after the long press: the ghost shows above the finger before it moves.
    await expect(page.getByTestId('drag-ghost')).toBeVisible();
    await expect(page.getByTestId('chip-9')).toHaveClass(/chip--moving/);
    await page.screenshot({ path: '/tmp/touch-lifted-375.png' });
    const to = { x: t.x + t.width * 0.25, y: t.y + t.height / 2 };
    for (let i = 1; i <= 12; i++) {
      const p = { x: from.x + ((to.x - from.x) * i) / 12, y: from.y + ((to.y - from.y) * i) / 12 };
      await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
    }
    await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await client.detach();
    await expect.poll(() => laneOf(page.getByTestId('chip-9'))).toBe('0');
    await expect(page.getByTestId('chip-9')).toHaveAttribute('data-kind', 'crash');
    errors.check();
  });

  test('dragging a chip off the timeline deletes it, asks nothing, and offers Undo', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const from = await centre(page.getByTestId('chip-6'));
    // Off the timeline, onto the cursor controls just above it (on screen, so nothing scrolls meanwhile).
    const off = (await page.getByTestId('cursor-position').boundingBox())!;
    await touchGesture(page, from, { x: off.x + 10, y: off.y + off.height / 2 }, 450);
    await expect(chips(page)).toHaveCount(9);
    await expect(page.getByTestId('notice')).toContainText('Deleted step 6 (Consume)');
    const undo = page.getByTestId('notice-undo');
    await expect(undo).toBeVisible();
    await page.screenshot({ path: '/tmp/touch-deleted-375.png' });
    await undo.tap();
    await expect(chips(page)).toHaveCount(10);
    errors.check();
  });

  test('tap a palette chip, then a gap on a lane; tap the chip again to cancel', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    const flush = page.getByTestId('palette-flush');
    await flush.tap();
    await expect(page.getByTestId('placing-help')).toContainText('tap a gap on a lane');
    await expect(page.getByTestId('placing-help')).not.toContainText('←');
    await expect(page.locator('.timeline--placing')).toHaveCount(1);
    await expect(page.locator('.palette__hint--touch')).toBeVisible();
    await page.screenshot({ path: '/tmp/touch-placing-375.png' });
    await flush.tap();
    await expect(page.getByTestId('placing-help')).toHaveText('');
    await expect(chips(page)).toHaveCount(10);

    // A refused gap (the cluster lane) shows why next to the indicator, inside the scroller, and keeps the placement.
    await page.getByTestId('palette-fetch').tap();
    await cell(page, 2, 3).tap({ position: { x: 8, y: 20 } });
    const why = page.getByTestId('drop-indicator-why');
    await expect(why).toContainText('needs a broker');
    await expectInside(why, page.locator('.timeline__scroll'));
    expect(await clipped(page, '.drop-indicator__why')).toEqual([]);
    await page.screenshot({ path: '/tmp/touch-refused-375.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: '/tmp/touch-refused-375-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
    // Another gap places it: before step 3 on B's lane.
    await cell(page, 1, 3).tap({ position: { x: 8, y: 20 } });
    await expect(chips(page)).toHaveCount(11);
    await expect(page.getByTestId('chip-3')).toHaveAttribute('data-kind', 'fetch');
    await expect.poll(() => laneOf(page.getByTestId('chip-3'))).toBe('1');
    await expect(page.getByTestId('placing-help')).toHaveText('');
    // The trailing gap appends: a Flush tapped onto A's lane after the last step is step 11.
    await page.getByTestId('palette-flush').tap();
    const end = cell(page, 0, 'end');
    await end.scrollIntoViewIfNeeded();
    await end.tap({ position: { x: 8, y: 20 } });
    await expect(chips(page)).toHaveCount(12);
    await expect(page.getByTestId('chip-11')).toHaveAttribute('data-kind', 'flush');
    errors.check();
  });

  test('the variants are compared one at a time on the same grid, with the first difference marked', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await expect(page.getByTestId('variant-hw-truncation')).toBeVisible();
    await expect(page.getByTestId('variant-kip-279')).toBeHidden();
    await expect(page.getByTestId('variant-switch-difference')).toContainText('part ways after step 8');
    await page.getByTestId('variant-switch-kip-279').tap();
    await expect(page.getByTestId('variant-kip-279')).toBeVisible();
    await expect(page.getByTestId('variant-hw-truncation')).toBeHidden();
    await expect(page.getByTestId('variant-switch-kip-279')).toHaveAttribute('aria-pressed', 'true');
    // Same cursor, and the switch to the first difference moves it there.
    await expect(page.getByTestId('cursor-position')).toContainText('Step 9 of 9');
    await page.getByRole('button', { name: 'Show step 8' }).tap();
    await expect(page.getByTestId('cursor-position')).toContainText('Step 8 of 9');
    await page.getByTestId('variant-switch').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/touch-variants-375.png' });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
    errors.check();
  });

  test('every control is at least 24 by 24 CSS pixels and no text is clipped', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    const small = await page
      .locator('button, select, input, summary, [role="button"]')
      .evaluateAll((els) =>
        els
          .filter((el) => (el as HTMLElement).offsetParent !== null)
          .map((el) => ({ el, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width < 24 || r.height < 24)
          .map(({ el, r }) => `${el.tagName}.${el.className} "${el.textContent?.slice(0, 20)}" ${r.width}x${r.height}`),
      );
    expect(small).toEqual([]);
    expect(await clipped(page, TEXT)).toEqual([]);
    await page.screenshot({ path: '/tmp/touch-full-375.png', fullPage: true });
    errors.check();
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a mouse drags a timeline chip at once, and a refused drop says why on every lane', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('chip-9'), cell(page, 0, 9), 'left');
    await expect.poll(() => laneOf(page.getByTestId('chip-9'))).toBe('0');
    // A Fetch hovered over the cluster lane, the last one: the ghost carries the reason, on screen.
    const s = await centre(page.getByTestId('palette-fetch'));
    const t = (await cell(page, 2, 9).boundingBox())!;
    await page.mouse.move(s.x, s.y);
    await page.mouse.down();
    await page.mouse.move(t.x + t.width - 4, t.y + t.height / 2, { steps: 10 });
    const ghostWhy = page.getByTestId('drag-ghost-why');
    await expect(ghostWhy).toContainText('needs a broker');
    await expectInside(ghostWhy, page.locator('body'));
    await page.screenshot({ path: '/tmp/touch-refused-drag-desktop.png' });
    await page.mouse.up();
    // With the keyboard, on each lane: the reason stays inside the timeline's scroller, whole.
    await page.getByTestId('palette-fetch').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const why = page.getByTestId('drop-indicator-why');
    await expect(why).toContainText('needs a broker');
    await expectInside(why, page.locator('.timeline__scroll'));
    expect(await clipped(page, '.drop-indicator__why')).toEqual([]);
    await page.screenshot({ path: '/tmp/touch-refused-keyboard-desktop.png' });
    await page.keyboard.press('Escape');
    // A rejected chip shows its whole reason, and again on hover and in the editor.
    await mouseDrag(page, page.getByTestId('palette-fetch'), cell(page, 1, 'end'));
    await expect(page.getByTestId('chip-10-reason')).toHaveText('NOT_FOLLOWER');
    await expect(page.getByTestId('chip-10')).toHaveAttribute('title', /^Rejected: NOT_FOLLOWER under hw-truncation/);
    expect(await clipped(page, TEXT)).toEqual([]);
    await page.getByTestId('chip-10').click();
    await expect(page.locator('.editor__outcomes')).toContainText('NOT_FOLLOWER');
    errors.check();
  });

  test('Enter on a palette chip right after a drag starts a placement (the drag\'s click is not waited for)', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    // A drag that ends nowhere, then at once, before the page's next tick, a key's click (detail 0) on the
    // same chip: on a loaded machine the key comes before that tick. It used to be swallowed as the drag's click.
    await page.getByTestId('palette-fetch').evaluate((chip) => {
      const r = chip.getBoundingClientRect();
      const at = (type: string, x: number, buttons: number) =>
        new PointerEvent(type, { bubbles: true, pointerId: 1, pointerType: 'mouse', isPrimary: true, button: 0, buttons, clientX: x, clientY: r.y + 4 });
      chip.dispatchEvent(at('pointerdown', r.x + 4, 1));
      for (const dx of [10, 20, 30]) window.dispatchEvent(at('pointermove', r.x + 4 + dx, 1));
      window.dispatchEvent(at('pointerup', r.x + 34, 0));
      (chip as HTMLElement).focus();
      (chip as HTMLElement).click();
    });
    await expect(page.getByTestId('drop-indicator')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('drop-indicator')).toHaveCount(0);
    errors.check();
  });

  test('deleting by dragging off the timeline says so, with Undo', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('chip-7'), page.getByTestId('headline'));
    await expect(page.getByTestId('notice')).toContainText('Deleted step 7 (Crash)');
    await expect(page.getByTestId('notice-undo')).toBeVisible();
    await page.screenshot({ path: '/tmp/touch-deleted-desktop.png' });
    errors.check();
  });
});

/** A scenario whose events are rejected with Kafka's longest error names, on a long record name. */
const REJECTED = JSON.stringify({
  version: 1,
  name: 'Rejections',
  brokers: ['A', 'B', 'C'],
  config: { variant: 'kip-279', min_insync_replicas: 3 },
  events: [
    { kind: 'produce', record: 'a-long-record-name' },
    { kind: 'elect' },
    { kind: 'restart', broker: 'A' },
    { kind: 'produce', record: 'r1', acks: 1, broker: 'B' },
    { kind: 'shrink_isr', broker: 'B' },
    { kind: 'crash', broker: 'C' },
    { kind: 'shrink_isr', broker: 'A' },
    { kind: 'produce', record: 'r2' },
    { kind: 'crash', broker: 'A', notify_controller: false, power: true },
    { kind: 'crash', broker: 'B' },
    { kind: 'elect' },
    { kind: 'fetch', broker: 'B' },
  ],
});

/** The embed link for a preset (or the scenario above), as "Copy embed code" gives it (editable, so that the
 *  palette shows too). */
async function embedLink(page: Page, preset: string): Promise<string> {
  await open(page);
  await page.getByText('Share, embed, export and import').click();
  if (preset === 'rejected') {
    const before = await page.getByTestId('embed-code').inputValue();
    await page.getByTestId('import-text').fill(REJECTED);
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('notice')).toContainText('Imported');
    // The import is read by the lessons' module and comes back as a message: the embed code follows after.
    await expect(page.getByTestId('embed-code')).not.toHaveValue(before);
  } else {
    await page.getByTestId('preset-picker').selectOption(preset);
  }
  const code = await page.getByTestId('embed-code').inputValue();
  return code.match(/src="([^"]+)"/)![1].replace(/&amp;/g, '&').replace('embed=view', 'embed=edit');
}

for (const width of [320, 480, 720, 1024]) {
  test(`${width} px wide, the full page and an embed clip no chip label, reason or badge`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);
    const presets = await (async () => {
      await open(page);
      const ids = await page.getByTestId('preset-picker').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v));
      return ['rejected', ...ids];
    })();
    let reasons = 0;
    for (const preset of presets) {
      const link = await embedLink(page, preset);
      for (const [where, url] of [['page', link.replace('&embed=edit', '')], ['embed', link]]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url);
        await expect(page.getByTestId('headline')).toBeVisible();
        // Every step, so that every badge and reason is seen. A long timeline draws the chips near what it
        // shows: the reasons drawn are counted at every step, not only as the page opens.
        let drawn = await page.locator('.chip__reason').count();
        for (const step of await page.locator('[data-testid^="step-"]').all()) {
          await step.click();
          expect(await clipped(page, TEXT), `${preset}, ${where}, ${width} px`).toEqual([]);
          drawn = Math.max(drawn, await page.locator('.chip__reason').count());
        }
        reasons += drawn;
        if (preset === 'rejected') await page.screenshot({ path: `/tmp/touch-${where}-${width}.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
      }
    }
    expect(reasons, 'rejected chips among the presets').toBeGreaterThan(0);
    errors.check();
  });
}
