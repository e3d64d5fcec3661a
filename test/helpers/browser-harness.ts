// Real Chromium for the browser tests and benchmarks: Debian's /usr/bin/chromium driven by
// playwright-core with the flags CI uses (playwright downloads no browser). Missing Chromium
// is an error that names the command installing it, never a skipped test.
//
//   const session = await openBrowser();
//   const { page, errors } = await session.newPage(node.url + '/t.html', { html: '<!doctype html>', headers: ISOLATION_HEADERS });
//   ... page.evaluate(...) ...
//   await session.close();
//
// uvu drops an error thrown by a before() hook without printing it, so suites open the
// browser in before() through `browserSetup`, which rethrows the error in every test.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

export interface PageOptions {
  /**
   * Serve this HTML at the page's URL from inside the browser (the server is not asked),
   * so a test page can sit on the node's origin and import /browser/tpkit.js from it.
   */
  html?: string;
  /** Response headers of that HTML, e.g. ISOLATION_HEADERS for a cross-origin-isolated page. */
  headers?: Record<string, string>;
}

export interface BrowserSession {
  browser: Browser;
  /** A new page at `url`; its uncaught errors and console errors are collected in `errors`. */
  newPage(url: string, options?: PageOptions): Promise<{ page: Page; errors: string[] }>;
  /** Closes every page and the browser: no Chromium process outlives this. */
  close(): Promise<void>;
}

/** `path` if it exists, else an error naming the package to install. */
export function requireChromium(path: string = CHROMIUM_PATH): string {
  if (!existsSync(path)) throw new Error(`${path} not found. The browser tests need real Chromium: apt-get install chromium`);
  return path;
}

/** `extraFlags` adds Chromium switches, e.g. `--host-resolver-rules=MAP name.test 127.0.0.1`. */
export async function openBrowser(extraFlags: string[] = []): Promise<BrowserSession> {
  const executablePath = requireChromium();
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS, ...extraFlags], headless: true });
  const pages: Page[] = [];
  return {
    browser,
    async newPage(url, options = {}) {
      const page = await browser.newPage();
      pages.push(page);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      const { html } = options;
      if (html !== undefined) {
        await page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: options.headers ?? {}, body: html }));
      }
      await page.goto(url);
      return { page, errors };
    },
    async close() {
      await Promise.allSettled(pages.map((p) => p.close()));
      await browser.close();
    },
  };
}

/**
 * For uvu suites: `setup` runs in before(); if it throws, `check()` (called in
 * before.each) throws the same error, so every test fails with its message.
 */
export function browserSetup(setup: () => Promise<void>): { before: () => Promise<void>; check: () => void } {
  let failure: unknown;
  return {
    async before() {
      try {
        await setup();
      } catch (err) {
        failure = err;
      }
    },
    check() {
      if (failure !== undefined) throw failure;
    },
  };
}
