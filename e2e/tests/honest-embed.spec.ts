// Issue 10, part 5 (hostile pages): only the embedding page drives an embed, from its own origin if the
// link names one, and a load over the limits is refused before it is read. Part 4: play at the last step.
import { BrowserContext, expect, Page, test } from '@playwright/test';
import { open, watchErrors } from './helpers';

const BASE = process.env.EPOCHLAB_BASE_URL!;
const APP_ORIGIN = new URL(BASE).origin;
const LANDING = 'KIP-101 scenario 1: a committed record lost';
const HAPPY = { version: 1, name: 'Replaced by a stranger', brokers: ['A'], events: [{ kind: 'elect' }] };

/** Serve `html` at `url` (any origin: nothing goes out, the route answers). */
async function serve(context: BrowserContext, url: string, html: string) {
  await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
}

/** A page that frames the app at `fragment` and records what the embed posts back. */
function host(fragment: string, extra = '') {
  return `<!doctype html><meta charset="utf-8"><body style="margin:0">
<iframe id="app" src="${BASE}${fragment}" width="720" height="640" style="border:0"></iframe>${extra}
<script>window.got = []; addEventListener('message', (e) => { if (e.data && e.data.epochlab) got.push(e.data); });</script>`;
}

function warnings(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => { if (m.type() === 'warning') seen.push(m.text()); });
  return seen;
}

test('the full page ignores every message, even its own', async ({ page }) => {
  const errors = watchErrors(page);
  const seen = warnings(page);
  await open(page);
  await expect(page.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  await page.evaluate((s) => {
    window.postMessage({ epochlab: 1, type: 'goto', step: 2 }, '*');
    window.postMessage({ epochlab: 1, type: 'load', scenario: s }, '*');
  }, HAPPY);
  await page.waitForTimeout(800);
  await expect(page.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  await expect(page.getByTestId('headline')).toContainText(LANDING);
  expect(seen.filter((w) => w.includes('Epochlab'))).toEqual([]);
  errors.check();
});

test('a popup opened by another site cannot replace the scenario, full page or embed link', async ({ context, page }) => {
  await serve(context, 'http://evil.test/opener.html', '<!doctype html><title>evil</title>');
  await page.goto('http://evil.test/opener.html');
  for (const fragment of ['', '#embed=edit']) {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((url) => { (window as any).w = window.open(url); }, BASE + fragment),
    ]);
    const seen = warnings(popup);
    await expect(popup.getByTestId('headline')).toContainText(LANDING);
    await page.evaluate((s) => {
      for (let i = 0; i < 5; i++) (window as any).w.postMessage({ epochlab: 1, type: 'load', scenario: s }, '*');
    }, HAPPY);
    await popup.waitForTimeout(800);
    await expect(popup.getByTestId('headline')).toContainText(LANDING);
    if (fragment) expect(seen.some((w) => w.includes('not from the embedding page'))).toBe(true);
    // The full page never saved the stranger's scenario either.
    if (!fragment) expect(await popup.evaluate(() => localStorage.getItem('epochlab.working.v1') ?? '')).not.toContain('stranger');
    await popup.close();
  }
});

test('a sibling iframe from another origin cannot drive the embed; its parent can', async ({ context, page }) => {
  const errors = watchErrors(page);
  const seen = warnings(page);
  const attack = `<!doctype html><script>
    const s = ${JSON.stringify(HAPPY)};
    setInterval(() => parent.frames[0].postMessage({ epochlab: 1, type: 'load', scenario: s }, '*'), 150);
  </script>`;
  await serve(context, 'http://evil.test/attack.html', attack);
  await serve(context, `${BASE}host.html`, host('#embed=edit', '<iframe id="evil" src="http://evil.test/attack.html"></iframe>'));
  await page.goto(`${BASE}host.html`);
  const app = page.frameLocator('#app');
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  await expect.poll(() => seen.filter((w) => w.includes('not from the embedding page')).length).toBeGreaterThan(0);
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  // The embedding page itself is followed.
  await page.evaluate(() => (document.getElementById('app') as HTMLIFrameElement).contentWindow!.postMessage({ epochlab: 1, type: 'goto', step: 2 }, '*'));
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 2 of 9: fetch');
  await page.screenshot({ path: '/tmp/honest-embed-sibling.png' });
  errors.check();
});

test('a flood of 100,000 messages from a sibling frame costs a count, not a warning each', async ({ context, page }) => {
  const errors = watchErrors(page);
  const seen = warnings(page);
  const flood = `<!doctype html><script>
    const s = ${JSON.stringify(HAPPY)};
    addEventListener('message', () => {
      for (let i = 0; i < 100000; i++) parent.frames[0].postMessage({ epochlab: 1, type: 'load', scenario: s }, '*');
      parent.postMessage('flooded', '*');
    });
  </script>`;
  await serve(context, 'http://evil.test/flood.html', flood);
  await serve(context, `${BASE}host.html`, host('#embed=edit', '<iframe id="evil" src="http://evil.test/flood.html"></iframe>'));
  await page.goto(`${BASE}host.html`);
  const app = page.frameLocator('#app');
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  await page.evaluate(() => new Promise<void>((done) => {
    addEventListener('message', (e) => { if (e.data === 'flooded') done(); });
    (document.getElementById('evil') as HTMLIFrameElement).contentWindow!.postMessage('go', '*');
  }));
  // Once the embed has taken all of them in, the 100,000th is counted.
  await expect.poll(() => seen.some((w) => w.includes('ignored 100000 message(s) from http://evil.test')), { timeout: 60_000 }).toBe(true);
  expect(seen.filter((w) => w.includes('Epochlab ignored')).length).toBe(6);
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  await page.evaluate(() => (document.getElementById('app') as HTMLIFrameElement).contentWindow!.postMessage({ epochlab: 1, type: 'goto', step: 2 }, '*'));
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 2 of 9: fetch');
  errors.check();
});

test('with origin= in its link, an embed follows only that origin', async ({ context, page }) => {
  const seen = warnings(page);
  const app = page.frameLocator('#app');
  const post = (step: number) =>
    page.evaluate((s) => (document.getElementById('app') as HTMLIFrameElement).contentWindow!.postMessage({ epochlab: 1, type: 'goto', step: s }, '*'), step);
  // Framed by this origin, but the link names another: ignored.
  await serve(context, `${BASE}host-other.html`, host(`#embed=view&origin=${encodeURIComponent('http://blog.test')}`));
  await page.goto(`${BASE}host-other.html`);
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  await post(2);
  await expect.poll(() => seen.some((w) => w.includes('this embed follows only http://blog.test'))).toBe(true);
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  // Nor does it tell this parent anything: not even that it is ready.
  expect(await page.evaluate(() => (window as any).got.length)).toBe(0);
  // The link names this origin: followed.
  await serve(context, `${BASE}host-same.html`, host(`#embed=view&origin=${encodeURIComponent(APP_ORIGIN)}`));
  await page.goto(`${BASE}host-same.html`);
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  await post(2);
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 2 of 9: fetch');
  await expect.poll(() => page.evaluate(() => (window as any).got.map((m: any) => m.type))).toEqual(expect.arrayContaining(['ready', 'step']));
  // The origin stays in the embed's address, so a reload still follows only that origin.
  await expect.poll(() => page.frames()[1].evaluate(() => location.hash)).toContain(`&origin=${encodeURIComponent(APP_ORIGIN)}`);
});

test('a load of a million events is refused at once, with a message, and the scenario stays', async ({ context, page }) => {
  const errors = watchErrors(page);
  await serve(context, `${BASE}host.html`, host('#embed=edit'));
  await page.goto(`${BASE}host.html`);
  const app = page.frameLocator('#app');
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  const started = Date.now();
  await page.evaluate(() => {
    const events = Array.from({ length: 1_000_000 }, () => ({ kind: 'elect' }));
    const frame = (document.getElementById('app') as HTMLIFrameElement).contentWindow!;
    frame.postMessage({ epochlab: 1, type: 'load', scenario: { version: 1, brokers: ['A'], events } }, '*');
  });
  await expect(app.getByTestId('notice')).toContainText('1000000 events; a scenario holds at most 1000', { timeout: 5000 });
  expect(Date.now() - started).toBeLessThan(5000);
  await expect(app.getByTestId('headline')).toContainText(LANDING);
  await page.screenshot({ path: '/tmp/honest-embed-million.png' });
  errors.check();
});

test("an embed's play at the last step replays from the start, as its own ▶ does", async ({ context, page }) => {
  const errors = watchErrors(page);
  await serve(context, `${BASE}host.html`, host('#embed=view'));
  await page.goto(`${BASE}host.html`);
  const app = page.frameLocator('#app');
  await expect(app.getByTestId('cursor-position')).toHaveText('Step 9 of 9: crash');
  await expect.poll(() => page.evaluate(() => (window as any).got.some((m: any) => m.type === 'ready'))).toBe(true);
  await page.evaluate(() => (document.getElementById('app') as HTMLIFrameElement).contentWindow!.postMessage({ epochlab: 1, type: 'play' }, '*'));
  await expect(app.getByTestId('cursor-position')).toHaveText(/Before the first step|Step [0-2] of 9/);
  await expect.poll(() => page.evaluate(() => (window as any).got.some((m: any) => m.type === 'step' && m.step === null))).toBe(true);
  await expect(app.getByTestId('cursor-position')).toHaveText(/Step [1-9] of 9/, { timeout: 5000 });
  errors.check();
});
