// The node's static files: content types and isolation headers on every answer, GET and
// HEAD only, nothing outside the folders, /api/ untouched. The handler is checked on a
// folder of its own; the node, on the built bundle it serves at /browser/.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStaticHandler, resolveStaticPath } from '../../src/node/http/static.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
/** A server answering only from createStaticHandler, over a temporary folder. */
let plain: http.Server;
let plainUrl: string;
let root: string;

test.before(async () => {
  node = await startTestNode({});
  root = mkdtempSync(join(tmpdir(), 'tpkit-static-'));
  mkdirSync(join(root, 'site', 'sub'), { recursive: true });
  mkdirSync(join(root, 'bundle'));
  const files: Record<string, string> = {
    'site/index.html': '<!doctype html>',
    'site/app.css': 'body{}',
    'site/logo.svg': '<svg/>',
    'site/data.json': '{}',
    'site/k.wasm': '\0asm',
    'site/sub/index.html': 'sub',
    'bundle/tpkit.js': 'export {}',
    'secret.txt': 'outside',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  const handler = createStaticHandler([
    { prefix: '/browser/', dir: join(root, 'bundle') },
    { prefix: '/', dir: join(root, 'site') },
  ]);
  plain = http.createServer((req, res) => {
    handler(req, res, (req.url ?? '/').split('?')[0]).then((served) => {
      if (!served) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});

test.after(async () => {
  await node?.close();
  await new Promise((resolve) => plain?.close(resolve));
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A raw request, so the path reaches the server exactly as written (fetch normalises it). */
function raw(base: string, path: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function checkIsolation(headers: http.IncomingHttpHeaders, path: string): void {
  assert.is(headers['cross-origin-opener-policy'], 'same-origin', path);
  assert.is(headers['cross-origin-embedder-policy'], 'require-corp', path);
  assert.is(headers['cross-origin-resource-policy'], 'same-origin', path);
}

test('each file type gets its content type and the COOP, COEP and CORP headers; a folder its index.html', async () => {
  const expected: [string, string, string][] = [
    ['/', 'text/html', '<!doctype html>'],
    ['/index.html', 'text/html', '<!doctype html>'],
    ['/sub/', 'text/html', 'sub'],
    ['/app.css', 'text/css', 'body{}'],
    ['/logo.svg', 'image/svg+xml', '<svg/>'],
    ['/data.json', 'application/json', '{}'],
    ['/k.wasm', 'application/wasm', '\0asm'],
    ['/browser/tpkit.js', 'text/javascript', 'export {}'],
    ['/app.css?v=2', 'text/css', 'body{}'],
  ];
  for (const [path, type, body] of expected) {
    const r = await raw(plainUrl, path);
    assert.is(r.status, 200, path);
    assert.ok(r.headers['content-type']?.startsWith(type), `${path}: ${r.headers['content-type']}`);
    assert.is(r.body, body, path);
    checkIsolation(r.headers, path);
  }
  const head = await raw(plainUrl, '/app.css', 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.is(head.headers['content-length'], '6');
});

test('paths that leave the folder, name nothing, or use another method are not served', async () => {
  for (const path of [
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/browser/..%2f..%2fsecret.txt',
    '/browser/%2e%2e/%2e%2e/secret.txt',
    '/..%5csecret.txt',
    '/sub/../../secret.txt',
    `/${encodeURIComponent(join(root, 'secret.txt'))}`,
    `/${join(root, 'secret.txt')}`,
    '/%00',
    '/%zz',
    '/nope.js',
    '/browser/nope.js',
  ]) {
    const r = await raw(plainUrl, path);
    assert.is(r.status, 404, path);
    assert.not.ok(r.body.includes('outside'), path);
  }
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const r = await raw(plainUrl, '/index.html', method);
    assert.is(r.status, 404, method);
  }
});

test('the node serves the built bundle at /browser/ with the isolation headers', async () => {
  for (const path of ['/browser/tpkit.js', '/browser/miner-worker.js']) {
    const r = await raw(node.url, path);
    assert.is(r.status, 200, `${path} (build it with node scripts/build-browser.mjs)`);
    assert.ok(r.headers['content-type']?.startsWith('text/javascript'), `${path}: ${r.headers['content-type']}`);
    checkIsolation(r.headers, path);
  }
  const head = await raw(node.url, '/browser/tpkit.js', 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  // The real bundle, byte for byte as built (dist/browser/tpkit.js), not a placeholder.
  assert.is(Number(head.headers['content-length']), statSync(fileURLToPath(new URL('../../browser/tpkit.js', import.meta.url))).size);
});

test('on the node, what is not a file gets the API answers as before', async () => {
  for (const path of [
    '/../package.json',
    '/%2e%2e/package.json',
    '/browser/..%2f..%2fpackage.json',
    '/browser/%2e%2e/%2e%2e/package.json',
    '/..%5c..%5cpackage.json',
    '/%00',
    '//etc/passwd',
    '/nope.js',
  ]) {
    const r = await raw(node.url, path);
    assert.is(r.status, 404, path);
    assert.is(JSON.parse(r.body).error, 'ROUTE_NOT_FOUND', path);
  }
  const malformed = await raw(node.url, '/%E0%A4%A');
  assert.is(malformed.status, 400, 'a malformed escape is a bad request');
  assert.ok(JSON.parse(malformed.body).error);
  assert.is((await raw(node.url, '/browser/tpkit.js', 'POST')).status, 404);
  const settings = await raw(node.url, '/api/settings');
  assert.is(settings.status, 200);
  assert.is(settings.headers['cross-origin-embedder-policy'], undefined, '/api/ answers carry no isolation headers');
  assert.is((await raw(node.url, '/api/nope')).status, 404);
});

test('resolveStaticPath keeps every answer inside its root', () => {
  assert.is(resolveStaticPath(root, 'site/app.css'), join(root, 'site', 'app.css'));
  assert.is(resolveStaticPath(root, ''), root);
  for (const bad of ['../x', 'site/../../x', '%2e%2e/x', 'site\\..\\..\\x', '../../../../etc/passwd', 'x%00', '%zz', 'site/./app.css']) {
    assert.is(resolveStaticPath(root, bad), undefined, bad);
  }
});

test.run();
