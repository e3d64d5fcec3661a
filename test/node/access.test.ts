// Who may use the node, as a table: Host forms (DNS rebinding), Origins (cross-site pages),
// methods, content types, with and without /api, over HTTP and WebSocket upgrades. Each row
// asserts the status and code; afterwards the node still answers and no wallet has changed.
// Then: the dev API beyond loopback, the static files' headers and their real-path check.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressToText } from '../../src/codec/address.js';
import { parseNodeArgs } from '../../src/node/config/config.js';
import { createStaticHandler } from '../../src/node/http/static.js';
import { fee, pay, startTestNode, transfer, type TestNode } from '../helpers/node-helpers.js';

let node: TestNode;
/** A node that also answers node.test and *.corp.test, and pages of https://wallet.example. */
let open: TestNode;

test.before(async () => {
  node = await startTestNode({ accounts: 2 });
  open = await startTestNode({ accounts: 1, allowHosts: ['node.test', '.corp.test'], allowOrigins: ['https://wallet.example'] });
});

test.after(async () => {
  await node?.close();
  await open?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A request with exactly these headers (fetch would set Host and Origin itself). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method, headers, setHost: !('host' in headers) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A WebSocket upgrade with these headers: 101, or the status (and its status line) and code it was refused with. */
function upgrade(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; statusLine?: string; error?: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path,
      setHost: !('host' in headers),
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101 });
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusLine: `${res.statusCode} ${res.statusMessage}`, error: JSON.parse(text).error }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Everything a refused request could have changed: height, pending, every wallet. */
async function fingerprint(n: TestNode): Promise<string> {
  await n.chain.settle();
  return JSON.stringify({
    height: n.chain.height,
    pending: n.chain.mempool.size,
    wallets: [...n.chain.wallets.entries()].map(([a, w]) => [a, w.seq.toString(), [...w.amount.entries()].map(([c, v]) => `${c}:${v}`)]),
  });
}

const port = (n: TestNode) => new URL(n.url).port;

test('Host: this machine, IP literals and --allow-host names are answered; any other name is 403 HOST_NOT_ALLOWED before any route', async () => {
  const before = await fingerprint(node);
  const p = port(node);
  const dev = addressToText(node.chain.accounts[1].address);
  const faucet = JSON.stringify({ address: dev, amount: 1000 });
  const json = { 'content-type': 'application/json' };
  const rows: [TestNode, string, string, string, number, string | undefined, string?][] = [
    // [node, Host, method, path, status, error code, body]
    [node, 'localhost', 'GET', '/api/node/status', 200, undefined],
    [node, `localhost:${p}`, 'GET', '/node/status', 200, undefined],
    [node, `LocalHost.:${p}`, 'GET', '/api/node/status', 200, undefined],
    [node, `wallet.localhost:${p}`, 'GET', '/api/dev/accounts', 200, undefined],
    [node, `127.0.0.1:${p}`, 'GET', '/api/dev/accounts', 200, undefined],
    [node, `[::1]:${p}`, 'GET', '/api/node/status', 200, undefined],
    [node, '192.168.7.9', 'GET', '/api/node/status', 200, undefined],
    [node, `evil.example:${p}`, 'GET', '/api/dev/accounts', 403, 'HOST_NOT_ALLOWED'],
    [node, 'evil.example', 'GET', '/dev/accounts', 403, 'HOST_NOT_ALLOWED'],
    [node, `localhost.evil.example:${p}`, 'GET', '/api/node/status', 403, 'HOST_NOT_ALLOWED'],
    [node, `127.0.0.1.evil.example:${p}`, 'GET', '/api/node/status', 403, 'HOST_NOT_ALLOWED'],
    [node, 'evil.example', 'GET', '/', 403, 'HOST_NOT_ALLOWED'],
    [node, 'evil.example', 'GET', '/api/nope', 403, 'HOST_NOT_ALLOWED'],
    [node, 'evil.example', 'OPTIONS', '/api/dev/faucet', 403, 'HOST_NOT_ALLOWED'],
    [node, 'evil.example', 'POST', '/api/dev/faucet', 403, 'HOST_NOT_ALLOWED', faucet],
    [node, 'evil.example', 'POST', '/dev/mine', 403, 'HOST_NOT_ALLOWED', '{}'],
    [node, 'evil.example', 'POST', '/api/tx/new', 403, 'HOST_NOT_ALLOWED', '{}'],
    [node, 'bad host', 'GET', '/api/node/status', 403, 'HOST_NOT_ALLOWED'],
    [node, 'node.test', 'GET', '/api/node/status', 403, 'HOST_NOT_ALLOWED'],
    [open, `node.test:${port(open)}`, 'GET', '/api/dev/accounts', 200, undefined],
    [open, 'corp.test', 'GET', '/api/node/status', 200, undefined],
    [open, 'a.b.corp.test', 'GET', '/node/status', 200, undefined],
    [open, 'notcorp.test', 'GET', '/api/node/status', 403, 'HOST_NOT_ALLOWED'],
    [open, 'evil.example', 'GET', '/api/dev/accounts', 403, 'HOST_NOT_ALLOWED'],
  ];
  for (const [n, host, method, path, status, error, body] of rows) {
    const label = `${method} ${path} Host: ${host}`;
    const res = await raw(n.url, method, path, { host, ...(body ? json : {}) }, body);
    assert.is(res.status, status, `${label}: ${JSON.stringify(res.body).slice(0, 200)}`);
    if (error) {
      assert.is(res.body.error, error, label);
      assert.is(res.body.code, 10060, label);
      assert.not.match(JSON.stringify(res.body), /secret_key/, label);
    }
  }
  assert.is(await fingerprint(node), before, 'no refused request changed the chain');
  assert.is((await node.get('/api/node/status')).status, 200);
});

test('Origin: this machine, the node itself and --allow-origin get CORS; others are refused before the body, never null', async () => {
  const before = await fingerprint(node);
  const p = port(node);
  const dev = addressToText(node.chain.accounts[1].address);
  const faucet = JSON.stringify({ address: dev, amount: 1000 });
  type Row = [TestNode, string, string, string, Record<string, string>, number, string | undefined, string?];
  const json = { 'content-type': 'application/json' };
  const rows: Row[] = [
    // [node, Origin, method, path, more headers, status, error code, body]
    [node, 'http://localhost:5173', 'POST', '/api/tx/new', json, 400, 'MISSING_TX', '{}'],
    [node, 'http://wallet.localhost', 'POST', '/tx/new', json, 400, 'MISSING_TX', '{}'],
    [node, 'http://127.0.0.5:8080', 'POST', '/api/tx/new', json, 400, 'MISSING_TX', '{}'],
    [node, 'https://[::1]:3000', 'POST', '/api/tx/new', json, 400, 'MISSING_TX', '{}'],
    [node, `http://127.0.0.1:${p}`, 'POST', '/api/dev/mine', json, 200, undefined, '{"blocks":1}'],
    [node, 'https://evil.example', 'POST', '/api/tx/new', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [node, 'https://evil.example', 'POST', '/tx/new', { 'content-type': 'text/plain' }, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [node, 'https://evil.example', 'POST', '/api/dev/faucet', json, 403, 'ORIGIN_NOT_ALLOWED', faucet],
    [node, 'https://evil.example', 'POST', '/dev/faucet', { 'content-type': 'application/x-www-form-urlencoded' }, 403, 'ORIGIN_NOT_ALLOWED', 'address=x'],
    [node, 'null', 'POST', '/api/dev/faucet', json, 403, 'ORIGIN_NOT_ALLOWED', faucet],
    [node, 'null', 'POST', '/api/dev/mine', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [node, 'http://localhost.evil.example', 'POST', '/api/dev/mine', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [node, 'http://127.0.0.1.evil.example', 'POST', '/api/dev/mine', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [node, 'https://evil.example', 'OPTIONS', '/api/dev/faucet', { 'access-control-request-method': 'POST' }, 403, 'ORIGIN_NOT_ALLOWED'],
    [node, 'null', 'OPTIONS', '/api/tx/new', { 'access-control-request-method': 'POST' }, 403, 'ORIGIN_NOT_ALLOWED'],
    [node, 'https://evil.example', 'GET', '/api/node/status', {}, 200, undefined],
    [open, 'https://wallet.example', 'POST', '/api/tx/new', json, 400, 'MISSING_TX', '{}'],
    [open, 'https://wallet.example:8443', 'POST', '/api/tx/new', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
    [open, 'http://wallet.example', 'POST', '/api/tx/new', json, 403, 'ORIGIN_NOT_ALLOWED', '{}'],
  ];
  for (const [n, origin, method, path, headers, status, error, body] of rows) {
    const label = `${method} ${path} Origin: ${origin}`;
    const res = await raw(n.url, method, path, { origin, ...headers }, body);
    assert.is(res.status, status, `${label}: ${JSON.stringify(res.body).slice(0, 200)}`);
    if (error) assert.is(res.body.error, error, label);
    const granted = status !== 403 && !(origin === 'https://evil.example' && method === 'GET');
    assert.is(res.headers['access-control-allow-origin'], granted ? origin : undefined, `${label}: CORS only for allowed origins`);
    if (status === 403 && method === 'POST') assert.is(res.headers.connection, 'close', `${label}: the unread body is not parsed`);
  }
  // the one dev/mine an allowed page asked for made one block; nothing else changed
  const after = JSON.parse(await fingerprint(node));
  assert.is(after.height, JSON.parse(before).height + 1);
  assert.equal(after.wallets, JSON.parse(before).wallets);
});

test('a preflight is approved only for allowed origins, Private Network Access included', async () => {
  const ask = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type', 'access-control-request-private-network': 'true' };
  const ok = await raw(node.url, 'OPTIONS', '/api/dev/faucet', { origin: 'http://localhost:3000', ...ask });
  assert.is(ok.status, 204);
  assert.is(ok.headers['access-control-allow-origin'], 'http://localhost:3000');
  assert.is(ok.headers['access-control-allow-private-network'], 'true');
  assert.match(String(ok.headers.vary), /Origin/);
  const allowedRemote = await raw(open.url, 'OPTIONS', '/api/tx/new', { origin: 'https://wallet.example', ...ask });
  assert.is(allowedRemote.status, 204);
  assert.is(allowedRemote.headers['access-control-allow-private-network'], 'true');
  for (const origin of ['https://evil.example', 'null']) {
    const refused = await raw(node.url, 'OPTIONS', '/api/dev/faucet', { origin, ...ask });
    assert.is(refused.status, 403, origin);
    assert.is(refused.body.error, 'ORIGIN_NOT_ALLOWED', origin);
    assert.is(refused.headers['access-control-allow-origin'], undefined, origin);
    assert.is(refused.headers['access-control-allow-private-network'], undefined, origin);
  }
});

test('dev endpoints take only application/json (415 CONTENT_TYPE_UNSUPPORTED), with or without /api; other routes as before', async () => {
  const before = await fingerprint(node);
  const dev = addressToText(node.chain.accounts[1].address);
  const faucet = JSON.stringify({ address: dev, amount: 1000 });
  for (const path of ['/api/dev/faucet', '/dev/faucet', '/api/%64ev/faucet', '//api//dev/mine', '/dev/mine.json', '/api/dev/nope']) {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined, 'application/jsonp', 'text/json']) {
      const res = await raw(node.url, 'POST', path, type ? { 'content-type': type } : {}, faucet);
      const label = `POST ${path} ${type ?? 'no content type'}`;
      assert.is(res.status, 415, label);
      assert.is(res.body.error, 'CONTENT_TYPE_UNSUPPORTED', label);
      assert.is(res.body.code, 10062, label);
    }
  }
  assert.is(await fingerprint(node), before, 'no faucet and no block');
  const ok = await raw(node.url, 'POST', '/dev/faucet', { 'content-type': 'Application/JSON; charset=utf-8' }, faucet);
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  // the reference API takes text/plain as before (the SDK in Node sends no Origin)
  const a = node.chain.accounts[0];
  const tx = transfer({
    key: a.secretKey,
    from: a.address,
    to: node.chain.accounts[1].address,
    seq: Number(node.chain.wallets.get(Buffer.from(a.address).toString('hex'))!.seq) + 1,
    t: Date.now(),
    payload: [pay(1), fee(50)],
  });
  const sent = await raw(node.url, 'POST', '/api/tx/new', { 'content-type': 'text/plain' }, JSON.stringify({ tx }));
  assert.is(sent.status, 200, JSON.stringify(sent.body));
});

test('WebSocket upgrades: the same Host rule, and an Origin that is allowed', async () => {
  const p = port(node);
  const rows: [TestNode, Record<string, string>, number, string?][] = [
    [node, {}, 101],
    [node, { origin: `http://127.0.0.1:${p}` }, 101],
    [node, { origin: 'http://localhost:5173', host: `localhost:${p}` }, 101],
    [node, { origin: 'https://evil.example' }, 403, 'ORIGIN_NOT_ALLOWED'],
    [node, { origin: 'null' }, 403, 'ORIGIN_NOT_ALLOWED'],
    [node, { host: `evil.example:${p}` }, 403, 'HOST_NOT_ALLOWED'],
    [node, { host: `evil.example:${p}`, origin: `http://evil.example:${p}` }, 403, 'HOST_NOT_ALLOWED'],
    [open, { host: 'node.test', origin: 'https://wallet.example' }, 101],
    [open, { host: 'node.test', origin: 'http://node.test' }, 101],
    [open, { host: 'evil.example' }, 403, 'HOST_NOT_ALLOWED'],
  ];
  for (const path of ['/api/ws', '/ws']) {
    for (const [n, headers, status, error] of rows) {
      const label = `${path} ${JSON.stringify(headers)}`;
      const res = await upgrade(n.url, path, headers);
      assert.is(res.status, status, label);
      if (status !== 101) assert.is(res.statusLine, `${status} ${http.STATUS_CODES[status]}`, label);
      assert.is(res.error, error, label);
    }
  }
  assert.is((await node.get('/api/node/status')).status, 200);
});

test('beyond loopback the dev API is off unless --dev-api; the Host rule stays on', async () => {
  const wide = await startTestNode({ host: '0.0.0.0' });
  const wideDev = await startTestNode({ host: '0.0.0.0', devApiBeyondLoopback: true });
  try {
    const local = (n: TestNode) => `http://127.0.0.1:${port(n)}`;
    const off = await raw(local(wide), 'GET', '/api/dev/accounts', {});
    assert.is(off.status, 403);
    assert.is(off.body.error, 'DEV_API_DISABLED');
    assert.is(wide.chain.config.devApi, false);
    assert.is((await raw(local(wide), 'GET', '/api/node/status', {})).status, 200);
    assert.is((await raw(local(wide), 'GET', '/api/node/status', { host: 'evil.example' })).body.error, 'HOST_NOT_ALLOWED');
    assert.is((await raw(local(wideDev), 'GET', '/api/dev/accounts', {})).status, 200);
    assert.is((await raw(local(wideDev), 'GET', '/api/dev/accounts', { host: 'evil.example' })).body.error, 'HOST_NOT_ALLOWED');
    assert.is(node.chain.config.devApi, true, 'on loopback the dev API stays on');
  } finally {
    await wide.close();
    await wideDev.close();
  }
});

test('every answer says nosniff; the playground has a CSP without framing; a symlink out of the web root is not served', async () => {
  for (const path of ['/api/node/status', '/api/nope', '/']) {
    const res = await raw(node.url, 'GET', path, {});
    assert.is(res.headers['x-content-type-options'], 'nosniff', path);
  }
  const page = await raw(node.url, 'GET', '/', {});
  const csp = String(page.headers['content-security-policy']);
  for (const part of ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "frame-ancestors 'none'", "object-src 'none'"]) assert.ok(csp.includes(part), `${part} in ${csp}`);
  assert.not.match(csp, /'unsafe-inline'|'unsafe-eval'|\*/);
  assert.is(page.headers['x-frame-options'], 'DENY');

  const root = mkdtempSync(join(tmpdir(), 'tpkit-symlink-'));
  const server = http.createServer();
  try {
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'site', 'real.txt'), 'inside');
    writeFileSync(join(root, 'secret.txt'), 'outside');
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere', 'index.html'), 'outside folder');
    symlinkSync(join(root, 'secret.txt'), join(root, 'site', 'leak.txt'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'site', 'dir'));
    symlinkSync(join(root, 'site', 'real.txt'), join(root, 'site', 'alias.txt'));
    const handler = createStaticHandler([{ prefix: '/', dir: join(root, 'site') }]);
    server.on('request', (req, res) => {
      handler(req, res, (req.url ?? '/').split('?')[0]).then((served) => served || res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const path of ['/leak.txt', '/dir/', '/dir/index.html']) {
      const res = await raw(base, 'GET', path, {});
      assert.is(res.status, 404, path);
      assert.not.match(String(res.body), /outside/, path);
    }
    const alias = await raw(base, 'GET', '/alias.txt', {});
    assert.is(alias.status, 200, 'a symlink inside the root is served');
    assert.is(alias.body, 'inside');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  }
});

test('flags and config keys: --allow-host, --allow-origin, --dev-api and the limits are checked where they are read', () => {
  const parsed = parseNodeArgs([
    '--allow-host',
    'Dev.Test.',
    '--allow-host',
    '.corp.test',
    '--allow-origin',
    'https://wallet.example:8443/',
    '--dev-api',
    '--max-pending-bytes',
    '1048576',
    '--max-pending-per-sender',
    '5',
    '--ws-max-connections',
    '9',
    '--ws-max-per-address',
    '3',
    '--ws-max-buffered',
    '65536',
  ]).config;
  assert.equal(parsed.allowHosts, ['dev.test', '.corp.test']);
  assert.equal(parsed.allowOrigins, ['https://wallet.example:8443']);
  assert.is(parsed.devApiBeyondLoopback, true);
  assert.equal(
    [parsed.limits.maxPendingBytes, parsed.limits.maxPendingPerSender, parsed.limits.wsConnections, parsed.limits.wsConnectionsPerAddress, parsed.limits.wsBufferedBytes],
    [1048576, 5, 9, 3, 65536],
  );
  const fromFile = parseNodeArgs(['--config', 'c.json', '--allow-host', 'b.test'], () => JSON.stringify({ allowHosts: ['a.test'], allowOrigins: ['*'], limits: { wsConnections: 4 } })).config;
  assert.equal(fromFile.allowHosts, ['a.test', 'b.test'], 'flags add to the file');
  assert.equal(fromFile.allowOrigins, ['*']);
  assert.is(fromFile.limits.wsConnections, 4);
  for (const [args, message] of [
    [['--allow-origin', 'null'], /"null" is shared by every sandboxed page/],
    [['--allow-origin', 'https://wallet.example/app'], /expected an origin/],
    [['--allow-origin', 'wallet.example'], /expected an origin/],
    [['--allow-host', 'http://evil.example'], /expected a host name/],
    [['--allow-host', 'a..b'], /expected a host name/],
    [['--dev-api', '--no-dev-api'], /cannot be combined/],
    [['--ws-max-buffered', '0'], /expected an integer/],
  ] as [string[], RegExp][]) {
    let error: any;
    try {
      parseNodeArgs(args);
    } catch (err) {
      error = err;
    }
    assert.is(error?.code, 'CONFIG_INVALID', args.join(' '));
    assert.match(error.message, message, args.join(' '));
  }
});

test.run();
