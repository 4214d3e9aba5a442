import { expect, Page, test } from '@playwright/test';
import { cell, chips, mouseDrag, open, watchErrors } from './helpers';

// Issue 24, found by an adversarial run: storage nearly full or full, two tabs, text the timeline replaced,
// and a pasted text of megabytes. Each case lost or froze something before its fix.

const WORKING = 'epochlab.working.v1';
const LIBRARY = 'epochlab.library.v1';

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

/** The kind of the stored working scenario's last event (the landing scenario has a flush and a crash). */
const lastStored = async (page: Page): Promise<string | undefined> =>
  JSON.parse((await stored(page, WORKING)) ?? '{"scenario":{"events":[]}}').scenario.events.at(-1)?.kind;

/** The kind of the last event of each scenario in My scenarios, in the list's order. */
const lastKinds = async (page: Page): Promise<string[]> =>
  JSON.parse((await stored(page, LIBRARY)) ?? '[]').map((e: { state: { scenario: { events: { kind: string }[] } } }) => e.state.scenario.events.at(-1)?.kind);

async function openMine(page: Page) {
  const details = page.getByTestId('my-scenarios');
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await details.locator('summary').click();
}

/** From now on, writing `key` (every key when none) throws the browser's QuotaExceededError. */
async function fillStorage(page: Page, key?: string) {
  await page.evaluate((only) => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k: string, v: string) {
      if (only && k !== only) return set.call(this, k, v);
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  }, key);
}

test('storage nearly full: a preset does not write over the edited scenario My scenarios could not take', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
  await expect.poll(() => lastStored(page)).toBe('flush');
  const edited = await chips(page).count();
  // Room for the working copy, none for My scenarios (the larger of the two).
  await fillStorage(page, LIBRARY);
  await page.getByTestId('preset-picker').selectOption('happy-path');
  await expect(page.getByTestId('notice')).toContainText('My scenarios could not be saved');
  await expect(page.getByTestId('notice')).toContainText('The stored scenario is kept until My scenarios can be saved');
  // Well past the pause after which the working copy is saved.
  await page.waitForTimeout(800);
  expect(await lastStored(page)).toBe('flush');
  // Opened again without the preset's link in the address: the stored copy opens.
  await page.goto('about:blank');
  await page.goto('./');
  await expect(chips(page)).toHaveCount(edited);
  errors.check();
});

test('storage full at load: what it holds opens, and the page says it is full, not blocked', async ({ page }) => {
  const hash = () => page.evaluate(() => location.hash);
  await open(page);
  await expect.poll(hash).not.toBe('');
  const landing = await hash();
  await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
  await expect.poll(() => lastStored(page)).toBe('flush');
  const edited = await chips(page).count();
  // This reload is about storage, not the address: it waits for the edited scenario's link (written once the
  // edits pause, after an asynchronous compression), so that the landing link cannot be what it reloads.
  await expect.poll(hash).not.toBe(landing);
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });
  await page.reload();
  await expect(chips(page)).toHaveCount(edited);
  await expect(page.getByTestId('notice')).toContainText("This site's storage is full");
  await expect(page.getByTestId('notice')).not.toContainText('blocks storage');
});

test('a reload started before the edited link is written opens the edit, not the link it reloads', async ({ page }) => {
  const errors = watchErrors(page);
  const hash = () => page.evaluate(() => location.hash);
  await open(page);
  // The landing link is in the address: the page's own, which the edit makes stale.
  await expect.poll(hash).not.toBe('');
  await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
  const edited = await chips(page).count();
  // The reload starts at once, with the landing link; its page answers 1.5 s later, and meanwhile the page
  // going away saves the edit and writes the edited link into an address the reload no longer reads.
  await page.route(/\/epochlab\/$/, async (route) => {
    await new Promise((done) => setTimeout(done, 1_500));
    await route.continue();
  });
  await page.reload();
  await expect(chips(page)).toHaveCount(edited);
  expect(await lastStored(page)).toBe('flush');
  errors.check();
});

test('two tabs: the scenario one tab saved is kept in My scenarios before the other writes over it', async ({ page, context }) => {
  const errors = watchErrors(page);
  await open(page);
  const other = await context.newPage();
  await other.goto('./');
  await expect(other.getByTestId('headline')).toBeVisible();
  // The other tab makes a scenario of its own and saves it. (The tab driven is brought to the front: a
  // hidden tab's timers, the save's among them, are throttled to seconds.)
  await mouseDrag(other, other.getByTestId('palette-crash'), cell(other, 0, 'end'));
  await expect.poll(() => lastStored(other)).toBe('crash');
  const theirs = await chips(other).count();
  // This tab is told, and keeps it, before its own edit writes over the stored copy.
  await page.bringToFront();
  await expect(page.getByTestId('notice')).toContainText('Another tab saved its own scenario');
  await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
  await expect.poll(() => lastStored(page)).toBe('flush');
  // The other tab's scenario is in My scenarios (and once that tab hears of this save, this tab's is in its).
  await expect.poll(() => lastKinds(page)).toContain('crash');
  // Opened again (no link in the address: the stored copy, this tab's), the other tab finds its own work in
  // My scenarios.
  await other.bringToFront();
  await other.goto('about:blank');
  await other.goto('./');
  await expect(chips(other).last()).toHaveAttribute('data-kind', 'flush');
  await openMine(other);
  const at = (await lastKinds(other)).indexOf('crash');
  await other.getByTestId('saved-list').locator('li').nth(at).getByRole('button', { name: /^Open/ }).click();
  await expect(chips(other)).toHaveCount(theirs);
  await expect(chips(other).last()).toHaveAttribute('data-kind', 'crash');
  errors.check();
});

test('text the timeline replaced before it was applied is kept, and Bring back my text returns it', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  await page.getByTestId('text-toggle').click();
  const text = page.getByTestId('text-input');
  // Once the panel has written the scenario in (before, what is typed would be written over).
  await expect(text).toHaveValue(/brokers:/);
  await text.press('Control+End');
  await text.pressSequentially('\nfetch Z # my half-typed line');
  await expect(page.getByTestId('text-error')).toContainText('line');
  const typed = await text.inputValue();
  await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
  await expect(page.getByTestId('text-set-aside')).toContainText('yours is kept');
  await expect(text).not.toHaveValue(typed);
  await page.getByTestId('text-bring-back').click();
  await expect(text).toHaveValue(typed);
  await expect(page.getByTestId('text-error')).toContainText('line');
  await expect(page.getByTestId('text-set-aside')).toHaveCount(0);
  errors.check();
});

test('a pasted text of megabytes is refused with its size, unread, and the timeline keeps its scenario', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page);
  const before = await chips(page).count();
  await page.getByTestId('text-toggle').click();
  const text = page.getByTestId('text-input');
  await expect(text).toHaveValue(/brokers:/);
  // As a paste lands: the whole value at once, then one input event.
  await text.evaluate((el: HTMLTextAreaElement) => {
    el.value = '# filler\n'.repeat(400_000);
    el.dispatchEvent(new InputEvent('input', { bubbles: true }));
  });
  // The browser's own handling of a 3 MB textarea takes seconds on a loaded machine; the page reads nothing.
  await expect(page.getByTestId('text-error')).toContainText("a scenario's text is at most 1024 KB", { timeout: 20_000 });
  await text.press('End');
  await text.pressSequentially('x');
  await expect(chips(page)).toHaveCount(before);
  errors.check();
});
