// The docs site as a reader meets it: built from docs/ with VitePress (after the generated
// references and the typedoc API pages are written), served over HTTP, and read in Chromium.
// Every page loads without an error, every internal link and anchor leads somewhere, code
// blocks are highlighted, and the search box finds a page.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { DOCS, ROOT, docPages } from '../helpers/doc-pages.js';

const OUT = mkdtempSync(join(tmpdir(), 'tpkit-site-'));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

let server: http.Server;
let origin = '';
let session: BrowserSession;

/** The built file for a URL path, as a static host serves VitePress output. */
function fileFor(path: string): string | undefined {
  const clean = normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, '');
  for (const candidate of [join(OUT, clean), join(OUT, clean, 'index.html'), join(OUT, `${clean}.html`)]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function run(args: string[], cwd: string): void {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

const setup = browserSetup(async () => {
  const vitepress = join(DOCS, 'node_modules/vitepress/bin/vitepress.js');
  if (!existsSync(vitepress)) throw new Error('the docs site tools are not installed: npm ci --prefix docs');
  run([join(ROOT, 'scripts/gen-docs.mjs'), '--api'], ROOT);
  run([vitepress, 'build', '.', '--outDir', OUT], DOCS);
  server = http.createServer((req, res) => {
    const file = fileFor(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  session = await openBrowser();
});

test.before(setup.before);
test.after(async () => {
  await session?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  rmSync(OUT, { recursive: true, force: true });
});

/** The site URL of a docs/ page: guide/client.md -> /guide/client.html, reference/index.md -> /reference/. */
const urlOf = (page: string) => `/${page.replace(/(^|\/)index\.md$/, '$1').replace(/\.md$/, '.html')}`;

const apiPages = () =>
  existsSync(join(DOCS, 'reference/api')) ? ['reference/api/index.md', ...['mine', 'node', 'browser', 'browser-keys', 'kernels', 'index-1'].map((n) => `reference/api/${n}.md`)] : [];

test('every page loads without an error, and every internal link and anchor leads somewhere', async () => {
  setup.check();
  const pages = [...docPages(), ...apiPages()];
  assert.ok(pages.length > 30, `${pages.length} pages`);
  const ids = new Map<string, Set<string>>();
  const links: { from: string; path: string; hash: string }[] = [];
  for (const page of pages) {
    const url = urlOf(page);
    assert.ok(fileFor(url), `the site has ${url}`);
    const { page: tab, errors } = await session.newPage(origin + url);
    const missing: string[] = [];
    tab.on('response', (r) => r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`));
    await tab.waitForSelector('.VPDoc h1', { timeout: 30_000 });
    const found = await tab.evaluate(() => ({
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      hrefs: [...document.querySelectorAll('.VPDoc a[href], .VPSidebar a[href], .VPNav a[href]')].map((a) => (a as HTMLAnchorElement).href),
    }));
    ids.set(new URL(origin + url).pathname, new Set(found.ids));
    for (const href of found.hrefs) {
      const target = new URL(href);
      if (target.origin !== origin) continue;
      links.push({ from: url, path: target.pathname, hash: decodeURIComponent(target.hash.slice(1)) });
    }
    assert.equal(errors, [], `${url}: errors in the page (${missing.join(', ')})`);
    await tab.close();
  }
  assert.ok(links.length > 200, `${links.length} links`);
  for (const { from, path, hash } of links) {
    assert.ok(fileFor(path), `${from} links to ${path}, which the site does not have`);
    if (!hash) continue;
    const known = ids.get(path) ?? ids.get(path.replace(/\/$/, '/index.html'));
    assert.ok(known, `${from} links to ${path}#${hash}: the page was not visited`);
    assert.ok(known!.has(hash), `${from} links to ${path}#${hash}: no such anchor`);
  }
});

test('code blocks are highlighted', async () => {
  setup.check();
  const { page } = await session.newPage(`${origin}/guide/library.html`);
  const colours = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('div.language-ts pre code span span')];
    return new Set(spans.map((s) => getComputedStyle(s).color)).size;
  });
  assert.ok(colours >= 3, `${colours} colours in the TypeScript blocks`);
  await page.close();
});

test('the search box finds the page that documents a function', async () => {
  setup.check();
  const { page, errors } = await session.newPage(`${origin}/`);
  await page.click('.VPNavBarSearch button');
  await page.fill('#localsearch-input', 'registerWallet');
  const result = page.locator('.VPLocalSearchBox .result').first();
  await result.waitFor({ timeout: 30_000 });
  const hrefs = await page.$$eval('.VPLocalSearchBox .result', (as) => as.map((a) => (a as HTMLAnchorElement).href));
  assert.ok(
    hrefs.some((h) => h.includes('/guide/client')),
    hrefs.join('\n'),
  );
  assert.equal(errors, []);
  await page.close();
});

test.run();
