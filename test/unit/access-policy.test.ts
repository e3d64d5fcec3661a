// Who may use the node, as docs/guide/security.md states it: the Host names answered (DNS
// rebinding), the pages granted CORS, the methods a foreign page may not use, the headers of a
// preflight, and the JSON-only development endpoints. Pure functions over header values, each
// rule checked on both sides of its edge.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type http from 'node:http';
import { TpkitError } from '../../src/errors.js';
import { allowHostEntry, hostAllowed, hostName, hostRefusal, isLocalhostName, isLoopbackListen } from '../../src/node/http/host-policy.js';
import { allowOriginEntry, corsHeaders, originAllowed, originRefusal } from '../../src/node/http/origin-policy.js';
import { checkDevContentType, checkRequest, checkUpgrade, LOCAL_ONLY } from '../../src/node/http/access-policy.js';

function request(method: string | undefined, headers: http.IncomingHttpHeaders): http.IncomingMessage {
  return { method, headers } as http.IncomingMessage;
}

function throwsCode(fn: () => unknown, code: string, match?: RegExp): void {
  try {
    fn();
  } catch (err) {
    assert.instance(err, TpkitError);
    assert.is((err as TpkitError).code, code);
    if (match) assert.match((err as Error).message, match);
    return;
  }
  assert.unreachable(`expected ${code}`);
}

test('hostName: lowercase, port and brackets dropped, a trailing dot ignored, malformed names refused', () => {
  assert.is(hostName('LocalHost:43280'), 'localhost');
  assert.is(hostName('localhost.'), 'localhost');
  assert.is(hostName('localhost'), 'localhost');
  assert.is(hostName('node.example:99999'), 'node.example');
  assert.is(hostName('node.example:123456'), undefined, 'six digits are no port, and a colon is no name character');
  assert.is(hostName('node.example:'), undefined);
  assert.is(hostName('node_1.example'), 'node_1.example');
  assert.is(hostName('[::1]:43280'), '::1');
  assert.is(hostName('[::1]'), '::1');
  assert.is(hostName('[FE80::1]'), 'fe80::1');
  assert.is(hostName('[::1]x'), undefined);
  assert.is(hostName('[::1]:'), undefined);
  assert.is(hostName('[::1'), undefined);
  assert.is(hostName('[127.0.0.1]'), undefined, 'brackets hold IPv6 only');
  assert.is(hostName('.example'), undefined);
  assert.is(hostName('a..example'), undefined);
  assert.is(hostName('a b'), undefined);
  assert.is(hostName('evil.com/x'), undefined);
  assert.is(hostName(''), undefined);
});

test('hostAllowed: localhost, *.localhost and IP literals by default; nothing else', () => {
  for (const ok of ['localhost', 'localhost:43280', 'app.localhost', 'A.B.LOCALHOST:1', '127.0.0.1:43280', '10.1.2.3', '[::1]:8080', '[fe80::1]']) {
    assert.ok(hostAllowed(ok, []), ok);
  }
  for (const no of ['evil.com', 'localhost.evil.com', 'notlocalhost', 'evil.com:43280', '[::1', 'a..b']) {
    assert.not.ok(hostAllowed(no, []), no);
  }
  assert.ok(hostAllowed(undefined, []), 'HTTP/1.0 without Host has no name to rebind');
});

test('hostAllowed: --allow-host entries: an exact name, a domain with its subdomains, or any', () => {
  assert.ok(hostAllowed('dev.example:8443', ['dev.example']));
  assert.not.ok(hostAllowed('www.dev.example', ['dev.example']), 'an exact entry is not a domain');
  assert.not.ok(hostAllowed('other.example', ['dev.example']));
  assert.ok(hostAllowed('example.com', ['.example.com']));
  assert.ok(hostAllowed('a.b.example.com', ['.example.com']));
  assert.not.ok(hostAllowed('badexample.com', ['.example.com']));
  assert.not.ok(hostAllowed('example.com.evil', ['.example.com']));
  assert.ok(hostAllowed('second.example', ['first.example', 'second.example']), 'every entry is looked at');
  assert.ok(hostAllowed('anything.example', ['*']));
  assert.not.ok(hostAllowed('bad host', ['*']), 'a malformed Host is refused even with *');
});

test('hostRefusal names the host and the flag that serves it', () => {
  const err = hostRefusal('Evil.com:80');
  assert.is(err.code, 'HOST_NOT_ALLOWED');
  assert.is(err.shortMessage, 'Host not allowed');
  assert.is(err.details, '"evil.com" is not localhost, *.localhost or an IP address; start the node with --allow-host evil.com to serve it');
  assert.is(hostRefusal('a b').details, 'a malformed Host header is not localhost, *.localhost or an IP address; start the node with --allow-host NAME to serve it');
});

test('isLocalhostName and isLoopbackListen', () => {
  assert.ok(isLocalhostName('localhost'));
  assert.ok(isLocalhostName('x.localhost'));
  assert.not.ok(isLocalhostName('xlocalhost'));
  for (const loop of ['127.0.0.1', '127.255.0.9', 'LOCALHOST', 'a.localhost', '::1', '[::1]', '::ffff:127.0.0.1']) assert.ok(isLoopbackListen(loop), loop);
  for (const open of ['0.0.0.0', '::', '128.0.0.1', '192.168.1.2', '127.0.0', '1127.0.0.1', 'example.com']) assert.not.ok(isLoopbackListen(open), open);
});

test('allowHostEntry: normalized, or CONFIG_INVALID naming the field', () => {
  assert.is(allowHostEntry('  Dev.Example.  ', 'allowHosts[0]'), 'dev.example');
  assert.is(allowHostEntry('.Example', 'f'), '.example');
  assert.is(allowHostEntry('*', 'f'), '*');
  assert.is(allowHostEntry('my_host', 'f'), 'my_host');
  throwsCode(() => allowHostEntry('a b', 'allowHosts[1]'), 'CONFIG_INVALID', /^allowHosts\[1\]: expected a host name/);
  throwsCode(() => allowHostEntry('a..b', 'f'), 'CONFIG_INVALID');
  throwsCode(() => allowHostEntry('..a', 'f'), 'CONFIG_INVALID');
  throwsCode(() => allowHostEntry('', 'f'), 'CONFIG_INVALID');
  throwsCode(() => allowHostEntry('*.example', 'f'), 'CONFIG_INVALID');
  try {
    allowHostEntry('a/b', 'allowHosts[2]');
  } catch (err) {
    assert.is((err as TpkitError).field, 'allowHosts[2]');
  }
});

test("originAllowed: this machine's pages on any port and scheme http/https, never null", () => {
  for (const ok of ['http://localhost:5173', 'https://localhost', 'http://app.localhost:3000', 'http://127.0.0.1:8080', 'http://127.9.8.7', 'http://[::1]:3000', 'http://0x7f.1']) {
    assert.ok(originAllowed(ok, 'localhost:43280', []), ok);
  }
  for (const no of ['null', 'not a url', 'http://evil.com', 'http://localhost.evil.com', 'http://128.0.0.1', 'http://[::2]', 'ws://localhost', 'file:///x', 'chrome-extension://abcdef']) {
    assert.not.ok(originAllowed(no, 'localhost:43280', []), no);
  }
});

test("originAllowed: the node's own pages (Origin equal to Host) and --allow-origin entries", () => {
  assert.ok(originAllowed('http://node.example:43280', 'node.example:43280', []));
  assert.ok(originAllowed('http://node.example:43280', 'NODE.example:43280', []), 'Host compared lowercase');
  assert.not.ok(originAllowed('http://node.example:43280', 'node.example:43281', []));
  assert.not.ok(originAllowed('http://node.example', undefined, []));
  assert.ok(originAllowed('https://wallet.example', 'localhost', ['https://wallet.example']));
  assert.not.ok(originAllowed('http://wallet.example', 'localhost', ['https://wallet.example']), 'the scheme is part of the origin');
  assert.ok(originAllowed('https://second.example', 'localhost', ['https://first.example', 'https://second.example']));
  assert.ok(originAllowed('https://any.example', 'localhost', ['*']));
  assert.not.ok(originAllowed('null', 'localhost', ['*']), 'null never, even with *');
  assert.not.ok(originAllowed('chrome-extension://abc', 'localhost', ['*']), '* covers web pages only');
  assert.ok(originAllowed('ws://tool.example', 'localhost', ['ws://tool.example']), 'another scheme only when listed');
});

test('originRefusal and allowOriginEntry', () => {
  const err = originRefusal('https://evil.example');
  assert.is(err.code, 'ORIGIN_NOT_ALLOWED');
  assert.is(err.shortMessage, 'Origin not allowed');
  assert.is(err.details, 'pages of "https://evil.example" may not use this node; it allows this machine\'s pages and --allow-origin entries');
  assert.is(originRefusal('x'.repeat(300)).details!.split('"')[1].length, 200, 'a long origin is cut');
  assert.is(allowOriginEntry(' https://wallet.example:8443/ ', 'f'), 'https://wallet.example:8443');
  assert.is(allowOriginEntry('*', 'f'), '*');
  throwsCode(() => allowOriginEntry('null', 'allowOrigins[0]'), 'CONFIG_INVALID', /allowOrigins\[0\]: the origin "null"/);
  throwsCode(() => allowOriginEntry('https://wallet.example/app', 'f'), 'CONFIG_INVALID', /no path/);
  throwsCode(() => allowOriginEntry('wallet.example', 'f'), 'CONFIG_INVALID');
  throwsCode(() => allowOriginEntry('file:///tmp/x', 'f'), 'CONFIG_INVALID');
});

test('corsHeaders: the origin echoed or *, the three methods, the asked headers, a day of caching', () => {
  assert.equal(corsHeaders(undefined, true, undefined, false), {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '86400',
  });
  assert.equal(corsHeaders('http://localhost:5173', true, 'x-one, content-type', true), {
    'access-control-allow-origin': 'http://localhost:5173',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'x-one, content-type',
    'access-control-max-age': '86400',
    vary: 'Origin',
    'access-control-allow-private-network': 'true',
  });
  assert.equal(corsHeaders('http://evil.com', false, 'x', true), { vary: 'Origin' });
  assert.not.ok('access-control-allow-private-network' in corsHeaders(undefined, true, undefined, true), 'private network only for a page');
  assert.not.ok('access-control-allow-private-network' in corsHeaders('http://localhost', true, undefined, false));
});

test('checkRequest: a bad Host is refused first, with no CORS header', () => {
  const access = checkRequest(request('GET', { host: 'evil.com', origin: 'http://localhost' }), LOCAL_ONLY);
  assert.is(access.refusal?.code, 'HOST_NOT_ALLOWED');
  assert.equal(access.cors, {});
  assert.is(checkRequest(request('GET', { host: 'evil.com' }), { allowHosts: ['evil.com'], allowOrigins: [] }).refusal, undefined);
});

test('checkRequest: a foreign page may read what a <script> could, never write or preflight', () => {
  for (const method of ['GET', 'HEAD', undefined]) {
    const access = checkRequest(request(method, { host: 'localhost', origin: 'http://evil.com' }), LOCAL_ONLY);
    assert.is(access.refusal, undefined, String(method));
    assert.equal(access.cors, { vary: 'Origin' }, 'no CORS header: it cannot read the answer');
  }
  for (const method of ['POST', 'OPTIONS', 'PUT', 'DELETE']) {
    const access = checkRequest(request(method, { host: 'localhost', origin: 'http://evil.com' }), LOCAL_ONLY);
    assert.is(access.refusal?.code, 'ORIGIN_NOT_ALLOWED', method);
    assert.equal(access.cors, { vary: 'Origin' });
  }
  const listed = checkRequest(request('POST', { host: 'localhost', origin: 'http://evil.com' }), { allowHosts: [], allowOrigins: ['http://evil.com'] });
  assert.is(listed.refusal, undefined);
  assert.is(listed.cors['access-control-allow-origin'], 'http://evil.com');
});

test('checkRequest: CORS for allowed pages and requests without Origin; a preflight for the private network', () => {
  assert.equal(checkRequest(request('POST', { host: 'localhost' }), LOCAL_ONLY), { cors: corsHeaders(undefined, true, undefined, false) });
  const preflight = checkRequest(
    request('OPTIONS', {
      host: 'localhost:43280',
      origin: ['http://localhost:5173', 'http://evil.com'] as unknown as string,
      'access-control-request-headers': 'content-type, x-a',
      'access-control-request-private-network': 'true',
    }),
    LOCAL_ONLY,
  );
  assert.is(preflight.refusal, undefined);
  assert.is(preflight.cors['access-control-allow-origin'], 'http://localhost:5173', 'the first Origin counts');
  assert.is(preflight.cors['access-control-allow-headers'], 'content-type, x-a');
  assert.is(preflight.cors['access-control-allow-private-network'], 'true');
  const get = checkRequest(request('GET', { host: 'localhost', origin: 'http://localhost:5173', 'access-control-request-private-network': 'true' }), LOCAL_ONLY);
  assert.not.ok('access-control-allow-private-network' in get.cors, 'only a preflight asks it');
  const no = checkRequest(request('OPTIONS', { host: 'localhost', origin: 'http://localhost:5173', 'access-control-request-private-network': 'false' }), LOCAL_ONLY);
  assert.not.ok('access-control-allow-private-network' in no.cors);
  const foreign = checkRequest(request('OPTIONS', { host: 'localhost', origin: 'http://evil.com', 'access-control-request-private-network': 'true' }), LOCAL_ONLY);
  assert.is(foreign.refusal?.code, 'ORIGIN_NOT_ALLOWED');
});

test('checkUpgrade: the same Host rule, and an Origin that is allowed', () => {
  assert.is(checkUpgrade(request('GET', { host: 'evil.com', origin: 'http://localhost' }), LOCAL_ONLY)?.code, 'HOST_NOT_ALLOWED');
  assert.is(checkUpgrade(request('GET', { host: 'localhost', origin: 'http://evil.com' }), LOCAL_ONLY)?.code, 'ORIGIN_NOT_ALLOWED');
  assert.is(checkUpgrade(request('GET', { host: 'localhost', origin: ['http://localhost', 'http://evil.com'] as unknown as string }), LOCAL_ONLY), undefined);
  assert.is(checkUpgrade(request('GET', { host: 'localhost' }), LOCAL_ONLY), undefined);
  assert.is(checkUpgrade(request('GET', {}), LOCAL_ONLY), undefined);
  assert.is(checkUpgrade(request('GET', { host: 'dev.example', origin: 'https://w.example' }), { allowHosts: ['dev.example'], allowOrigins: ['https://w.example'] }), undefined);
});

test('checkDevContentType: application/json only, named in the refusal', () => {
  assert.is(checkDevContentType(request('POST', { 'content-type': 'application/json' })), undefined);
  assert.is(checkDevContentType(request('POST', { 'content-type': ' Application/JSON ; charset=utf-8' })), undefined);
  const none = checkDevContentType(request('POST', {}));
  assert.is(none?.code, 'CONTENT_TYPE_UNSUPPORTED');
  assert.is(none?.shortMessage, 'The development endpoints take application/json');
  assert.is(none?.details, 'got no Content-Type; send Content-Type: application/json');
  assert.is(checkDevContentType(request('POST', { 'content-type': 'text/plain;charset=UTF-8' }))?.details, 'got "text/plain"; send Content-Type: application/json');
  const long = checkDevContentType(request('POST', { 'content-type': 'a'.repeat(150) }));
  assert.is(long?.details, `got "${'a'.repeat(100)}"; send Content-Type: application/json`);
  assert.is(checkDevContentType(request('POST', { 'content-type': 'application/json-seq' }))?.code, 'CONTENT_TYPE_UNSUPPORTED');
});

test.run();
