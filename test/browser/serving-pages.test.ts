// docs/guide/serving-pages.md as written, in Chromium: its page (the files the guide shows,
// read from the guide) served by `tpkit node --static DIR` on the node's origin registers a
// wallet; an inline script there is refused by the node's policy, as the guide says; the
// same page on another server of this machine, with its own copy of the browser build and
// the node in baseUrl, registers with no flag; and a page of a named origin needs
// --allow-origin.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSetup, openBrowser, type BrowserSession } from '../helpers/browser-harness.js';
import { spawnNode, type NodeProcess } from '../helpers/node-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GUIDE = readFileSync(join(ROOT, 'docs/guide/serving-pages.md'), 'utf8');
const BROWSER_BUILD = join(ROOT, 'dist/browser');
const WAIT = { timeout: 60_000 };

/** The guide's files: each fenced block whose info string names one (```js file=app.js). */
function guideFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const m of GUIDE.matchAll(/```\w+ file=(\S+)\n([^]*?)```/g)) files[m[1]] = m[2];
  return files;
}

const work = mkdtempSync(join(tmpdir(), 'tpkit-pages-'));
let session: BrowserSession;
const nodes: NodeProcess[] = [];
const servers: http.Server[] = [];

const setup = browserSetup(async () => {
  session = await openBrowser(['--host-resolver-rules=MAP wallet.test 127.0.0.1']);
});
test.before(setup.before);
test.before.each(setup.check);

test.after(async () => {
  await session?.close();
  await Promise.all(nodes.map((n) => n.stop()));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  rmSync(work, { recursive: true, force: true });
});

async function node(args: string[]): Promise<NodeProcess> {
  const started = await spawnNode(['--memory', '--port', '0', '--difficulty', '8', '--log-level', 'warn', ...args]);
  nodes.push(started);
  return started;
}

/** A plain static file server for `dir` on 127.0.0.1: "another server on this machine". */
async function serve(dir: string): Promise<number> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.map': 'application/json' };
  const server = http.createServer((req, res) => {
    const path = join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]).replace(/\/$/, '/index.html'));
    try {
      const body = readFileSync(path);
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Opens `url`; resolves with what the page's #out says once it matches `until` or the page's script fails, and its errors. */
async function run(url: string, until: RegExp): Promise<{ out: string; errors: string[] }> {
  const { page, errors } = await session.newPage(url);
  const failed = new Promise<void>((resolve) => page.on('pageerror', () => resolve()));
  const done = page.waitForFunction((re) => new RegExp(re).test(document.getElementById('out')?.textContent ?? ''), until.source, WAIT).then(() => {});
  await Promise.race([done, failed]).catch(() => {});
  return { out: (await page.locator('#out').textContent()) ?? '', errors };
}

async function wallet(n: NodeProcess, address: string): Promise<number> {
  return (await fetch(`${n.url}/api/address/${address}`)).status;
}

test('the guide has the two files of its page', () => {
  assert.equal(Object.keys(guideFiles()).sort(), ['app.js', 'index.html']);
});

test("tpkit node --static DIR: the guide's page on the node's origin registers a wallet", async () => {
  const dir = join(work, 'site');
  mkdirSync(dir);
  for (const [name, text] of Object.entries(guideFiles())) writeFileSync(join(dir, name), text);
  const n = await node(['--static', dir]);
  const { out, errors } = await run(`${n.url}/app/`, /^registered/);
  const address = /^registered (AA\d{18})$/.exec(out)?.[1];
  assert.ok(address, `${out} ${errors.join(' | ')}`);
  assert.is(await wallet(n, address!), 200);
  assert.equal(errors, []);
  // what the guide says of inline scripts: the node's policy refuses them
  writeFileSync(join(dir, 'inline.html'), `<!doctype html><p id="out">inline did not run</p><script type="module">document.getElementById('out').textContent = 'inline ran';</script>`);
  const inline = await run(`${n.url}/app/inline.html`, /inline ran|inline did not run/);
  assert.is(inline.out, 'inline did not run');
  assert.match(inline.errors.join(' '), /Content Security Policy/);
  // a file outside DIR is not served
  assert.is((await fetch(`${n.url}/app/..%2f..%2fpackage.json`)).status, 404);
});

test('the same page on another server of this machine, with its copy of the build and baseUrl, registers with no flag', async () => {
  const n = await node([]);
  const dir = join(work, 'elsewhere');
  mkdirSync(dir);
  const files = guideFiles();
  writeFileSync(join(dir, 'index.html'), files['index.html']);
  writeFileSync(join(dir, 'app.js'), files['app.js'].replace("'/browser/tpkit.js'", "'./tpkit/tpkit.js'").replace('location.origin', JSON.stringify(n.url)));
  cpSync(BROWSER_BUILD, join(dir, 'tpkit'), { recursive: true });
  const port = await serve(dir);
  const { out, errors } = await run(`http://127.0.0.1:${port}/`, /^registered/);
  const address = /^registered (AA\d{18})$/.exec(out)?.[1];
  assert.ok(address, `${out} ${errors.join(' | ')}`);
  assert.is(await wallet(n, address!), 200);

  // a page of a named origin is refused until the node allows that origin
  const named = `http://wallet.test:${port}`;
  const refused = await run(`${named}/`, /^registered/);
  assert.not.match(refused.out, /^registered/);
  assert.match(refused.errors.join(' '), /CORS|Failed to fetch|Node unreachable/);
  const open = await node(['--allow-origin', named]);
  writeFileSync(join(dir, 'app.js'), files['app.js'].replace("'/browser/tpkit.js'", "'./tpkit/tpkit.js'").replace('location.origin', JSON.stringify(open.url)));
  const allowed = await run(`${named}/`, /^registered/);
  assert.match(allowed.out, /^registered AA\d{18}$/, allowed.errors.join(' | '));
});

test.run();
