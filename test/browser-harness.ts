// Real Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core
// with the flags CI uses. Missing Chromium fails the test with the command that installs it.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.TPKIT_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

export interface BrowserSession {
  browser: Browser;
  /** A new page at `url`, its console errors collected in `errors`. */
  newPage(url: string): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install it with "apt-get install -y chromium" (the browser tests need real Chromium)`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, headless: true });
  const pages: Page[] = [];
  return {
    browser,
    async newPage(url) {
      const page = await browser.newPage();
      pages.push(page);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      await page.goto(url);
      return { page, errors };
    },
    async close() {
      await Promise.allSettled(pages.map((p) => p.close()));
      await browser.close();
    },
  };
}
