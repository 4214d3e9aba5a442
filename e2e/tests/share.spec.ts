import { expect, test } from '@playwright/test';
import { cell, chips, mouseDrag, open, shot, watchErrors } from './helpers';
import * as fs from 'fs';

async function openSharePanel(page) {
  await page.getByText('Share, embed, export and import').click();
}

test.describe('share links', () => {
  test('a link round-trips: edit, copy the link, open it in a fresh page, same state', async ({ browser, page }) => {
    const errors = watchErrors(page);
    await open(page);
    await mouseDrag(page, page.getByTestId('palette-crash'), cell(page, 1, 7), 'left');
    await page.getByText('Configuration: variants, brokers, cluster settings').click();
    await page.getByTestId('variant-toggle-kip-101').check();
    await page.getByTestId('step-5').click();
    // The address follows the edits (debounced).
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1/);
    await openSharePanel(page);
    // Both are compressed by the browser, a moment after each change.
    const same = async () => (await page.evaluate(() => location.href)) === (await page.getByTestId('share-link').inputValue());
    await expect.poll(same).toBe(true);
    const address = await page.evaluate(() => location.href);
    const link = await page.getByTestId('share-link').inputValue();
    expect(link.length).toBeLessThan(600);
    const verdicts = await page.locator('[data-testid^="verdict-"]').allTextContents();

    // A fresh browser context: no storage, nothing shared but the link.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link);
    await expect(chips(other)).toHaveCount(11);
    await expect(other.getByTestId('chip-7')).toHaveAttribute('data-kind', 'crash');
    await expect(other.getByTestId('cursor-position')).toHaveText('Step 5 of 10: fetch');
    await expect(other.getByTestId('variant-kip-101')).toBeVisible();
    expect(await other.locator('[data-testid^="verdict-"]').allTextContents()).toEqual(verdicts);
    // Opening a link does not overwrite the stored working scenario until the user edits.
    expect(await other.evaluate(() => localStorage.getItem('epochlab.working.v1'))).toBeNull();
    await fresh.close();
    otherErrors.check();
    errors.check();
  });

  test('a compressed link made by the command line opens, as will every version-1 link', async ({ page }) => {
    const errors = watchErrors(page);
    // `epochlab link crates/epochlab-core/src/presets/kip101-scenario-2.json -v hw-truncation -v kip-279
    // --step 6`: deflated by miniz_oxide, unpacked here by the browser's DecompressionStream.
    const cli =
      '#s=1Aa8CLZCxTsMwFEUbtxJzBQiJ6VaCBbURSbdu7QRiYevsJi_YimNXtkPE1n_gE_gcfqrPaTfr3ffuPddiIm5WH--fq-K1QKjISq8dyg3i4OCpcr4OkBHOElzTBIr_YgtDMo1tjYOLCgfvWvIBypkaXTEKXbnEoU-H5gdbKBnQmD4oShKiQ61Dm7NydAN5NFKb3hOibClcXGs32Bw7VK5LI1m1aLQPEYOOyrF1itABZKiKVC_H2MHryNvdeoQegVHk2CuynOUp9t4GPosBb3teQMn-3wk-jThxdA0OUXFhruN7w1S-t5VMxpbJtP3apEosh1RmUJTI-SD9C5e5KusL0vWEsY0BcRZjHKX2nJiLbJvtkN3en2YT0RWLxePLaZaJruTX7_Rv-vT8cJoJ0a3v5vMza2aBFA';
    await page.goto('./' + cli);
    await expect(page.getByTestId('headline')).toContainText('KIP-101 scenario 2: two records at one offset');
    await expect(chips(page)).toHaveCount(19);
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 6 of 18: produce');
    await expect(page.getByTestId('variant-hw-truncation')).toBeVisible();
    await expect(page.getByTestId('variant-kip-279')).toBeVisible();
    await expect(page.locator('.notice')).toHaveCount(0);
    errors.check();
  });

  test('the address bar follows edits without flooding the history', async ({ page }) => {
    await open(page);
    const before = await page.evaluate(() => history.length);
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1/);
    expect(await page.evaluate(() => history.length)).toBe(before);
  });

  for (const [name, hash, why] of [
    ['corrupt', '#s=1AZUCTZAx!!!!', 'could not be opened'],
    ['truncated', null, 'could not be opened'],
    ['oversized', '#s=1' + 'A'.repeat(70 * 1024), 'could not be opened'],
    ['future-version', '#s=9AAAA', 'newer Epochlab'],
  ] as const) {
    test(`a ${name} link shows a notice, opens the default scenario and keeps the stored one`, async ({ page }) => {
      const errors = watchErrors(page);
      await open(page);
      await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
      await expect(chips(page)).toHaveCount(11);
      await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1/);
      const good = await page.evaluate(() => location.hash);
      // Saving waits for a pause in the edits.
      await expect.poll(() => page.evaluate(() => localStorage.getItem('epochlab.working.v1'))).not.toBeNull();
      const stored = await page.evaluate(() => localStorage.getItem('epochlab.working.v1'));
      const bad = hash ?? good.slice(0, Math.floor(good.length / 2));
      await page.goto('about:blank');
      await page.goto(new URL('./' + bad, test.info().project.use.baseURL).toString());
      await expect(page.getByTestId('notice')).toContainText(why);
      await expect(chips(page)).toHaveCount(10);
      expect(await page.evaluate(() => localStorage.getItem('epochlab.working.v1'))).toBe(stored);
      errors.check();
    });
  }
});

test.describe('embeds', () => {
  test('embed=view is compact and read-only, with a link to the full app; embed=edit allows changes', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await openSharePanel(page);
    const code = await page.getByTestId('embed-code').inputValue();
    expect(code).toMatch(/^<iframe src="[^"]+#s=1[^"]+&amp;embed=view" title="Epochlab: KIP-101 scenario 1[^"]*" width="100%" height="\d+" style="border:0" loading="lazy"><\/iframe>$/);
    const src = code.match(/src="([^"]+)"/)![1].replace(/&amp;/g, '&');
    await page.evaluate(() => localStorage.clear());
    await page.goto(src);
    await expect(page.getByTestId('embed')).toBeVisible();
    await expect(page.locator('.palette')).toHaveCount(0);
    await expect(page.getByTestId('open-in-epochlab')).toHaveAttribute('href', /#s=1/);
    expect(await page.getByTestId('open-in-epochlab').getAttribute('href')).not.toContain('embed');
    // Dragging is off and the Delete key is refused.
    await mouseDrag(page, page.getByTestId('chip-6'), page.getByTestId('headline'));
    await expect(chips(page)).toHaveCount(10);
    await page.getByTestId('chip-6').focus();
    await page.keyboard.press('Delete');
    await expect(chips(page)).toHaveCount(10);
    await expect(page.getByTestId('notice')).toContainText('read-only');
    // Stepping still works, and nothing is written to storage.
    await page.keyboard.press('Home');
    await expect(page.getByTestId('cursor-position')).toHaveText('Before the first step');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await shot(page, testInfo, 'embed-view');
    await page.goto(src.replace('embed=view', 'embed=edit'));
    await mouseDrag(page, page.getByTestId('palette-flush'), cell(page, 0, 'end'));
    await expect(chips(page)).toHaveCount(11);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    errors.check();
  });

  test('the example blog page drives an embed with postMessage and follows its steps', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await page.goto('./embed-example.html');
    const follow = page.locator('#follow');
    await expect(follow).toContainText('Ready, at step 4 of 9');
    const story = page.frameLocator('#story');
    await page.getByRole('button', { name: 'A restarts and truncates' }).click();
    await expect(story.getByTestId('cursor-position')).toHaveText('Step 8 of 9: restart');
    await expect(follow).toContainText('Now at step 8 of 9: A restarts');
    await page.getByRole('button', { name: 'B crashes: is m2 still there?' }).click();
    await expect(follow).toHaveAttribute('data-step', '9');
    await page.getByRole('button', { name: 'Compare KIP-101 and KIP-279' }).click();
    await expect(story.getByTestId('variant-kip-101')).toBeVisible();
    await expect(story.getByTestId('variant-hw-truncation')).toHaveCount(0);
    await page.getByRole('button', { name: 'A fetches m1' }).click();
    await page.getByRole('button', { name: 'Play' }).click();
    await expect(follow).toHaveAttribute('data-step', '3', { timeout: 5000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    const at = await follow.getAttribute('data-step');
    await page.waitForTimeout(2000);
    await expect(follow).toHaveAttribute('data-step', at!);
    // The second embed is independent.
    await expect(page.frameLocator('#failover').getByTestId('verdict-kip-101')).toContainText('I3');
    await shot(page, testInfo, 'embed-example');
    errors.check();
  });

  test('unknown or malformed messages from the embedding page are ignored with a console warning', async ({ context, page }) => {
    const warnings: string[] = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    const errors = watchErrors(page);
    const base = process.env.EPOCHLAB_BASE_URL!;
    // Only an embed follows messages, and only from the page that frames it.
    await context.route(`${base}host-malformed.html`, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe id="app" src="${base}#embed=edit" width="720" height="600"></iframe>` }));
    await page.goto(`${base}host-malformed.html`);
    const app = page.frameLocator('#app');
    await expect(app.getByTestId('headline')).toBeVisible();
    await page.evaluate(() => {
      const w = (document.getElementById('app') as HTMLIFrameElement).contentWindow!;
      w.postMessage('hello', '*');
      w.postMessage({ epochlab: 1, type: 'explode' }, '*');
      w.postMessage({ epochlab: 2, type: 'play' }, '*');
      w.postMessage({ epochlab: 1, type: 'goto', step: 'soon' }, '*');
    });
    await expect.poll(() => warnings.filter((w) => w.startsWith('Epochlab ignored a message')).length).toBe(4);
    await page.evaluate(() => (document.getElementById('app') as HTMLIFrameElement).contentWindow!.postMessage({ epochlab: 1, type: 'goto', step: 2 }, '*'));
    await expect(app.getByTestId('cursor-position')).toHaveText('Step 2 of 9: fetch');
    errors.check();
  });
});

test.describe('files and pictures', () => {
  test('export JSON then import it by file picker, by dropping it and by pasting', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openSharePanel(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(download.suggestedFilename()).toBe('kip-101-scenario-1-a-committed-record-lost.json');
    const json = fs.readFileSync(await download.path(), 'utf8');
    expect(JSON.parse(json).version).toBe(1);
    // Change the scenario, then import the file back.
    await page.getByTestId('new-scenario').click();
    await expect(chips(page)).toHaveCount(0);
    await page.getByTestId('import-file').setInputFiles({ name: 's1.json', mimeType: 'application/json', buffer: Buffer.from(json) });
    await expect(chips(page)).toHaveCount(10);
    await expect(page.getByTestId('notice')).toContainText('Imported "KIP-101 scenario 1');
    // A bad file names the problem and changes nothing.
    await page.getByTestId('import-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "brokers": ["A"], "events": [{"kind": "fetch", "broker": "Z"}]}') });
    await expect(page.getByTestId('notice')).toContainText('Could not import bad.json: events[0] (fetch): unknown broker "Z"');
    await expect(chips(page)).toHaveCount(10);
    // Paste.
    await page.getByTestId('import-text').fill('{"version": 1, "brokers": ["A"],');
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('notice')).toContainText('line 1 column 32: EOF while parsing a value');
    await page.getByTestId('import-text').fill('{"version": 1, "name": "Pasted", "brokers": ["A"], "events": [{"kind": "elect"}]}');
    await page.getByTestId('import-paste').click();
    await expect(chips(page)).toHaveCount(1);
    // Drop the file onto the page.
    const dataTransfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
      return dt;
    }, json);
    await page.dispatchEvent('main', 'drop', { dataTransfer });
    await expect(chips(page)).toHaveCount(10);
    errors.check();
  });

  test('a scenario too large for a link says so and points to the JSON file', async ({ page }) => {
    const errors = watchErrors(page);
    await open(page);
    await openSharePanel(page);
    await expect(page.getByTestId('share-too-long')).toHaveCount(0);
    // 100,000 letters that barely compress (a fixed xorshift sequence) in the description.
    let x = 2463534242;
    const letters = Array.from({ length: 100_000 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      return String.fromCharCode(97 + (x % 26));
    }).join('');
    const scenario = { version: 1, name: 'Long', description: letters, brokers: ['A'], events: [{ kind: 'elect' }] };
    await page.getByTestId('import-text').fill(JSON.stringify(scenario));
    await page.getByTestId('import-paste').click();
    await expect(chips(page)).toHaveCount(1);
    await expect(page.getByTestId('share-too-long')).toContainText('too large for a link');
    await expect(page.getByTestId('share-too-long')).toContainText('share it as a JSON file instead');
    // The address bar holds no such link, so a reload opens the saved scenario instead of failing on it.
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
    await page.reload();
    await expect(page.getByTestId('headline')).toContainText('Long');
    await expect(page.getByTestId('notice')).toHaveCount(0);
    await openSharePanel(page);
    // Back to a small scenario, the warning goes.
    await page.getByTestId('new-scenario').click();
    await expect(page.getByTestId('share-too-long')).toHaveCount(0);
    errors.check();
  });

  test('export SVG and PNG; dropping the SVG back restores the scenario', async ({ page }, testInfo) => {
    const errors = watchErrors(page);
    await open(page);
    await page.getByTestId('step-8').click();
    await openSharePanel(page);
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-svg').click()]);
    expect(svgDownload.suggestedFilename()).toBe('kip-101-scenario-1-a-committed-record-lost.svg');
    const svg = fs.readFileSync(await svgDownload.path(), 'utf8');
    expect(svg).toContain('width="720"');
    expect(svg).toContain('<metadata id="epochlab-scenario">');
    fs.writeFileSync(testInfo.outputPath('export.svg'), svg);
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    const png = fs.readFileSync(await pngDownload.path());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    fs.writeFileSync(testInfo.outputPath('export.png'), png);
    // Look at the SVG as a reader would.
    const viewer = await page.context().newPage();
    await viewer.setContent(`<body style="margin:0">${svg}</body>`);
    await viewer.screenshot({ path: testInfo.outputPath('export-svg-rendered.png'), fullPage: true });
    await viewer.close();
    // Restore from the SVG.
    await page.getByTestId('new-scenario').click();
    await expect(chips(page)).toHaveCount(0);
    await page.getByTestId('import-file').setInputFiles({ name: 'picture.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await expect(chips(page)).toHaveCount(10);
    await expect(page.getByTestId('cursor-position')).toHaveText('Step 8 of 9: restart');
    errors.check();
  });
});
