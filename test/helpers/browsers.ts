// The three engines the e2e suite opens pages in, behind one small interface: Debian's
// Chromium through playwright-core (as the browser tests), Debian's Firefox ESR through
// WebDriver BiDi (puppeteer-core), and WebKitGTK's MiniBrowser under Xvfb through plain
// WebDriver (WebKitWebDriver from webkit2gtk-driver), spoken with fetch. A missing browser
// is an error naming the apt package, never a skipped test.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser as PlaywrightBrowser, type Page as PlaywrightPage } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core';
import { CHROMIUM_FLAGS, requireChromium } from './browser-harness.js';

export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: EngineName[] = ['chromium', 'firefox', 'webkit'];

export const FIREFOX_PATH = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER_PATH = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export interface Engine {
  name: EngineName;
  /** The browser's own version string. */
  version: string;
  /** Opens `url` in a fresh tab (the previous one is closed). */
  open(url: string): Promise<void>;
  /** Responses of 400 and above, and requests that failed, since the last open() (Chromium only: [] elsewhere). */
  failedRequests(): string[];
  close(): Promise<void>;
}

function need(path: string, apt: string): string {
  if (!existsSync(path)) throw new Error(`${path} not found: apt-get install ${apt}`);
  return path;
}

async function openChromium(extraFlags: string[] = []): Promise<Engine> {
  const browser: PlaywrightBrowser = await chromium.launch({ executablePath: requireChromium(), args: [...CHROMIUM_FLAGS, ...extraFlags], headless: true });
  let page: PlaywrightPage | undefined;
  let failed: string[] = [];
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async open(url) {
      await page?.close();
      failed = [];
      page = await browser.newPage();
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText ?? 'failed'} ${request.url()}`));
      await page.goto(url);
    },
    failedRequests: () => [...failed],
    async close() {
      await browser.close();
    },
  };
}

async function openFirefox(): Promise<Engine> {
  const browser: PuppeteerBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: need(FIREFOX_PATH, 'firefox-esr'),
    headless: true,
    // Firefox's own update and telemetry checks stay off the network.
    extraPrefsFirefox: { 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false },
  });
  let page: PuppeteerPage | undefined;
  return {
    name: 'firefox',
    version: await browser.version(),
    async open(url) {
      await page?.close();
      page = await browser.newPage();
      await page.goto(url);
    },
    failedRequests: () => [],
    async close() {
      await browser.close();
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** WebKitWebDriver under xvfb-run (MiniBrowser is a GTK window), spoken to over plain WebDriver. */
async function openWebKit(): Promise<Engine> {
  need(WEBKIT_DRIVER_PATH, 'webkit2gtk-driver');
  need(MINIBROWSER_PATH, 'webkit2gtk-driver (it brings libwebkit2gtk-4.1-0 with MiniBrowser)');
  need('/usr/bin/xvfb-run', 'xvfb xauth');
  const port = await freePort();
  // Its own process group, so close() ends Xvfb, the driver and the browser together.
  const driver: ChildProcess = spawn('xvfb-run', ['-a', WEBKIT_DRIVER_PATH, `--port=${port}`], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  driver.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = (await response.json()) as { value: Record<string, unknown> };
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${JSON.stringify(answer.value)}`);
    return answer.value;
  };
  const kill = () => {
    try {
      if (driver.pid) process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    for (let waited = 0; ; waited += 100) {
      try {
        await call('GET', '/status');
        break;
      } catch (err) {
        if (waited > 20_000) throw new Error(`WebKitWebDriver did not start: ${stderr || String(err)}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const session = await call('POST', '/session', {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] } } },
    });
    const id = session.sessionId as string;
    const capabilities = session.capabilities as Record<string, string>;
    return {
      name: 'webkit',
      version: `WebKitGTK ${capabilities.browserVersion ?? '?'}`,
      async open(url) {
        await call('POST', `/session/${id}/url`, { url });
      },
      failedRequests: () => [],
      async close() {
        await call('DELETE', `/session/${id}`).catch(() => undefined);
        kill();
      },
    };
  } catch (err) {
    kill();
    throw err;
  }
}

export function openEngine(name: EngineName, chromiumFlags: string[] = []): Promise<Engine> {
  if (name === 'chromium') return openChromium(chromiumFlags);
  return name === 'firefox' ? openFirefox() : openWebKit();
}
