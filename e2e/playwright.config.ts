import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

// scripts/e2e.sh serves a release build and passes its URL here. Nothing is downloaded: the browser is
// Debian's chromium (never run `npx playwright install`).
const baseURL = process.env.EPOCHLAB_BASE_URL;
if (!baseURL) {
  throw new Error('EPOCHLAB_BASE_URL is not set: run the e2e tests through `make test` (scripts/e2e.sh)');
}

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // The list as it runs, then each spec file's time and the tests over half their timeout.
  reporter: [['list'], ['./file-times.ts']],
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  timeout: 30_000,
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
});
