import { expect, Locator, Page, TestInfo } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** Collects console errors and page errors; call `check()` at the end of a test. */
export function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  return { check: () => expect(errors, 'console errors or page errors').toEqual([]) };
}

/** Opens the app with a clean localStorage (unless told to keep it). */
/** A 375 px touch phone, for `test.use` or `browser.newContext`. */
export const PHONE = { viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true };

export async function open(page: Page, keepStorage = false) {
  await page.goto('./');
  if (!keepStorage) {
    await page.evaluate(() => localStorage.clear());
    // Not a reload: the address already holds the landing scenario's link, which a reload would open.
    await page.goto('./');
  }
  await expect(page.getByTestId('headline')).toBeVisible();
}

/** Paste a scenario's text into the import box (opening the Share panel) and wait for the notice naming it. */
export async function pasteScenario(page: Page, text: string, name: string) {
  await page.locator('summary', { hasText: 'Share, embed, export and import' }).click();
  await page.getByTestId('import-text').fill(text);
  await page.getByTestId('import-paste').click();
  await expect(page.getByTestId('notice')).toContainText(`Imported "${name}"`);
}

export async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** The timeline cell of a lane (0-based, brokers then cluster) at a step, or the trailing "end" cell. */
export function cell(page: Page, lane: number, step: number | 'end'): Locator {
  return page.locator(`[data-drop-lane="${lane}"][data-drop-step="${step}"]`);
}

export function chips(page: Page): Locator {
  return page.locator('.timeline [data-testid^="chip-"][data-kind]');
}

/** Drags `source` onto `target` with real pointer (mouse) events, landing on its left or right half. */
export async function mouseDrag(page: Page, source: Locator, target: Locator | { x: number; y: number }, half: 'left' | 'right' = 'left') {
  if (!('x' in target)) await target.scrollIntoViewIfNeeded();
  await source.scrollIntoViewIfNeeded();
  const s = (await source.boundingBox())!;
  const t = 'x' in target ? { x: target.x, y: target.y, width: 0, height: 0 } : (await target.boundingBox())!;
  const tx = t.x + t.width * (half === 'left' ? 0.25 : 0.75);
  const ty = t.y + t.height / 2;
  await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2 + 12, s.y + s.height / 2 + 12, { steps: 3 });
  await page.mouse.move(tx, ty, { steps: 10 });
  await page.mouse.up();
}

/** Drags with touch events (Chromium turns them into pointer events of type "touch"). A timeline chip lifts
 *  only after a long press: pass `restMs` (say 450) to rest the finger first. */
export async function touchDrag(page: Page, source: Locator, target: Locator, half: 'left' | 'right' = 'left', restMs = 0) {
  await target.scrollIntoViewIfNeeded();
  // The phone's palette dock scrolls sideways: a chip off-screen would start an edge swipe instead. A timeline
  // chip goes to the middle of the screen, clear of the docked palette that would take the touch.
  if (restMs) await source.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  else await source.scrollIntoViewIfNeeded();
  const s = (await source.boundingBox())!;
  const t = (await target.boundingBox())!;
  const client = await page.context().newCDPSession(page);
  const from = { x: s.x + s.width / 2, y: s.y + s.height / 2 };
  const to = { x: t.x + t.width * (half === 'left' ? 0.25 : 0.75), y: t.y + t.height / 2 };
  await client.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  if (restMs) await page.waitForTimeout(restMs);
  for (let i = 1; i <= 10; i++) {
    const p = { x: from.x + ((to.x - from.x) * i) / 10, y: from.y + ((to.y - from.y) * i) / 10 };
    await client.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  }
  await client.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await client.detach();
}

/** The lane a timeline chip sits on. */
export async function laneOf(chip: Locator): Promise<string | null> {
  return chip.evaluate((el) => el.closest('[data-drop-lane]')?.getAttribute('data-drop-lane') ?? null);
}

/** The WCAG 2.2 A/AA rules that gate the suite (issue #11). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's best-practice rules that gate too, whatever their impact. */
const STRUCTURE_RULES = ['heading-order', 'page-has-heading-one', 'landmark-one-main', 'aria-allowed-role', 'presentation-role-conflict'];

/** Runs axe-core on the page as it is: a serious or critical violation fails the test; moderate and minor ones
 *  are printed, with the state they were found in. */
export async function expectAccessible(page: Page, state: string) {
  // A cell caught mid-animation (fading in) has a passing contrast only once it ends: check the page as it
  // settles, with the animations off as for a reader who asks for reduced motion.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // One axe run: the WCAG tags, and the structure rules enabled beside them (two runs took twice as long).
  const rules = Object.fromEntries(STRUCTURE_RULES.map((id) => [id, { enabled: true }]));
  const results = await new AxeBuilder({ page }).options({ runOnly: { type: 'tag', values: WCAG_TAGS }, rules }).analyze();
  const describe = (v: (typeof results.violations)[number]) =>
    `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n` +
    v.nodes.slice(0, 12).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`).join('\n');
  // Beyond WCAG's rules, the structure a screen reader user navigates by (one h1, headings in order, one
  // main) blocks whatever its impact.
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE_RULES.includes(v.id));
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((r) => r.id);
  expect(STRUCTURE_RULES.filter((id) => !ran.includes(id)), 'axe ran every structure rule').toEqual([]);
  for (const v of results.violations) console.log(`axe, ${state}: ${describe(v)}`);
  expect(blocking.map((v) => `${v.impact} ${v.id} (${v.nodes.length} nodes): ${v.help}`), `axe: serious or critical WCAG violations in state "${state}"`).toEqual([]);
}

/** Opens an address of the app afresh (a changed fragment alone would only reload the page itself). */
export async function visit(page: Page, fragment: string) {
  await page.goto('about:blank');
  await page.goto(`./${fragment}`);
}

/** A phone's page never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}
