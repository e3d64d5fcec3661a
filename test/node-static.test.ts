// The node's static files: the playground and bundle with isolation headers, nothing
// outside their folders, and /api/ untouched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveStaticPath } from '../src/node/static.js';
import { startTestNode, type TestNode } from './node-helpers.js';

let node: TestNode;
test.before(async () => {
  node = await startTestNode({});
});
test.after(async () => {
  await node.close();
});

/** A raw request, so the path reaches the server exactly as written (fetch normalises it). */
function raw(path: string, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(node.url);
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

test('the playground at / and the bundle at /browser/ come with COOP, COEP and CORP', async () => {
  for (const [path, type] of [['/', 'text/html'], ['/browser/tpkit.js', 'text/javascript'], ['/browser/miner-worker.js', 'text/javascript'], ['/style.css', 'text/css']]) {
    const r = await raw(path);
    assert.is(r.status, 200, path);
    assert.ok(r.headers['content-type']?.startsWith(type), `${path}: ${r.headers['content-type']}`);
    assert.is(r.headers['cross-origin-opener-policy'], 'same-origin');
    assert.is(r.headers['cross-origin-embedder-policy'], 'require-corp');
    assert.is(r.headers['cross-origin-resource-policy'], 'same-origin');
  }
  const head = await raw('/browser/tpkit.js', 'HEAD');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  assert.ok(Number(head.headers['content-length']) > 100_000);
});

test('paths that leave the folders, or name nothing, get the JSON 404', async () => {
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/browser/..%2f..%2fpackage.json', '/browser/%2e%2e/%2e%2e/package.json', '/..%5c..%5cpackage.json', '/%00', '//etc/passwd', '/nope.js']) {
    const r = await raw(path);
    assert.is(r.status, 404, path);
    assert.is(JSON.parse(r.body).error, 'ROUTE_NOT_FOUND', path);
  }
  const malformed = await raw('/%E0%A4%A');
  assert.is(malformed.status, 400, 'a malformed escape is a bad request');
  assert.ok(JSON.parse(malformed.body).error);
  assert.is((await raw('/', 'POST')).status, 404);
  assert.is((await raw('/api/settings')).status, 200);
  assert.is((await raw('/api/nope')).status, 404);
});

test('resolveStaticPath keeps every answer inside its root', () => {
  const root = mkdtempSync(join(tmpdir(), 'tpkit-static-'));
  mkdirSync(join(root, 'a'));
  writeFileSync(join(root, 'a', 'b.js'), '');
  assert.is(resolveStaticPath(root, 'a/b.js'), join(root, 'a', 'b.js'));
  assert.is(resolveStaticPath(root, ''), root);
  for (const bad of ['../x', 'a/../../x', '%2e%2e/x', 'a\\..\\..\\x', '/etc/passwd'.replace(/^\//, '../../../../etc/passwd'), 'x%00', '%zz']) {
    assert.is(resolveStaticPath(root, bad), undefined, bad);
  }
});

test.run();
