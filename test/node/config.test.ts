// `tpkit node` flags and config file, --help, TLS (user files and the self-signed mode).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText } from '../../src/codec/address.js';
import { defaultConfig, nodeHelp, NODE_FLAGS, parseNodeArgs } from '../../src/node/config/config.js';
import { feeAddressOf, buildGenesis, devSecretKey } from '../../src/node/ledger/genesis.js';
import { generateSelfSignedCert } from '../../src/node/http/self-signed-cert.js';
import { startTestNode } from '../helpers/node-helpers.js';

function fails(argv: string[], pattern: RegExp, files: Record<string, string> = {}) {
  try {
    parseNodeArgs(argv, (p) => {
      if (!(p in files)) throw new Error('ENOENT');
      return files[p];
    });
  } catch (err) {
    assert.is((err as { code?: string }).code, 'CONFIG_INVALID', argv.join(' '));
    assert.match((err as Error).message, pattern, argv.join(' '));
    return;
  }
  assert.unreachable(`${argv.join(' ')} should fail`);
}

test('defaults: 127.0.0.1, difficulty 16, block time 1000 ms, .tpkit/node', () => {
  const { config, help } = parseNodeArgs([]);
  assert.is(help, false);
  assert.is(config.host, '127.0.0.1');
  assert.is(config.difficulty, 16);
  assert.is(config.blockTime, 1000);
  assert.is(config.instant, false);
  assert.is(config.dataDir, '.tpkit/node');
  assert.is(config.memory, false);
});

test('every flag is parsed, and --help lists every flag', () => {
  const { config, portGiven } = parseNodeArgs([
    '--host',
    '0.0.0.0',
    '--port=0',
    '--data-dir',
    '/tmp/x',
    '--memory',
    '--chain',
    '5',
    '--node-name',
    'n1',
    '--difficulty',
    '0',
    '--block-time',
    '50',
    '--instant',
    '--alloc-group',
    '3',
    '--alloc-last',
    '100',
    '--fee',
    'SK:2:10:512',
    '--fee',
    'FEE:1:0:0',
    '--fee-address',
    'AA100000001677722412',
    '--accounts',
    '1',
    '--balance',
    'SK:5',
    '--balance',
    'FEE:7',
    '--tls-self-signed',
    '--verify-threads',
    '1',
    '--max-pending',
    '10',
    '--log-level',
    'debug',
  ]);
  assert.ok(portGiven);
  assert.equal(
    { ...config, limits: undefined },
    {
      ...defaultConfig(),
      limits: undefined,
      host: '0.0.0.0',
      port: 0,
      dataDir: '/tmp/x',
      memory: true,
      chain: 5,
      nodeName: 'n1',
      difficulty: 0,
      blockTime: 50,
      instant: true,
      allocGroup: 3,
      allocLast: 100,
      fees: { SK: { base: 2n, baseextra: 10n, kb: 512n }, FEE: { base: 1n, baseextra: 0n, kb: 0n } },
      feeAddress: 'AA100000001677722412',
      accounts: 1,
      balance: { SK: 5n, FEE: 7n },
      tls: { selfSigned: true },
      verifyThreads: 1,
      logLevel: 'debug',
    },
  );
  assert.is(config.limits.maxPending, 10);
  assert.equal(parseNodeArgs(['--fee', 'none']).config.fees, {});
  const help = nodeHelp();
  for (const f of NODE_FLAGS) assert.ok(help.includes(f.flag), f.flag);
  assert.is(parseNodeArgs(['--help']).help, true);
  assert.is(parseNodeArgs(['-h']).help, true);
});

test('a JSON config file, overridden by flags', () => {
  const file = JSON.stringify({
    port: 9000,
    chain: 3,
    difficulty: 4,
    fees: { SK: { base: '10', baseextra: 0, kb: 1 } },
    balance: { SK: '123456789012345678901234567890' },
    allocBlock: { group: 7, last: 20 },
    wallets: [{ address: '0x8000E00003000010', publicKey: '02B1912FABA80FCECD2A64C574FEFE422C61106001EC588AF1BD9D7548B81064CB', amount: { SK: 5 } }],
    limits: { maxSignatures: 2 },
    tls: { selfSigned: false },
    logLevel: 'warn',
  });
  const { config } = parseNodeArgs(['--config', 'c.json', '--difficulty', '9'], (p) => (p === 'c.json' ? file : ''));
  assert.is(config.port, 9000);
  assert.is(config.chain, 3);
  assert.is(config.difficulty, 9, 'the flag wins');
  assert.is(config.allocGroup, 7);
  assert.is(config.allocLast, 20);
  assert.is(config.balance.SK, 123456789012345678901234567890n);
  assert.is(config.limits.maxSignatures, 2);
  assert.is(config.wallets[0].amount.SK, 5n);
  assert.is(config.logLevel, 'warn');
});

test('bad flags and config values are refused with the flag or key named', () => {
  fails(['--nope'], /--nope: unknown flag/);
  fails(['--port'], /--port: expects a value/);
  fails(['--port', '70000'], /--port: expected an integer from 0 to 65535/);
  fails(['--difficulty', 'x'], /--difficulty/);
  fails(['--difficulty', '65'], /--difficulty.*from 0 to 64/); // a 64-bit nonce reaches no more
  fails(['--block-time', '0'], /--block-time/);
  fails(['--instant=yes'], /--instant: takes no value/);
  fails(['--fee', 'SK:1:2'], /--fee: expected CUR:base:baseextra:kb/);
  fails(['--balance', 'SK:-1'], /--balance/);
  fails(['--log-level', 'loud'], /--log-level: expected one of/);
  fails(['--tls-cert', 'a.pem'], /give both/);
  fails(['--tls-cert', 'a', '--tls-key', 'b', '--tls-self-signed'], /cannot be combined/);
  fails(['--config', 'missing.json'], /--config missing.json: cannot read JSON/);
  fails(['--config', 'c.json'], /c.json: colour: unknown config key/, { 'c.json': '{"colour": 1}' });
  fails(['--config', 'c.json'], /c.json: balance.SK/, { 'c.json': '{"balance": {"SK": 1.5}}' });
  fails(['--config', 'c.json'], /expected a JSON object/, { 'c.json': '[]' });
});

test('genesis: deterministic development accounts, fee wallet after them, config wallets', () => {
  const config = { ...defaultConfig(), accounts: 2 };
  const a = buildGenesis(config);
  const b = buildGenesis(config);
  assert.equal([...a.wallets.keys()], [...b.wallets.keys()]);
  assert.equal(
    a.accounts.map((x) => x.secretKey),
    [devSecretKey(0), devSecretKey(1)],
  );
  assert.is(addressToText(a.accounts[0].address), 'AA100000001677721780');
  assert.is(addressToText(feeAddressOf(config)), addressToText(a.feeAddress));
  assert.is(a.allocLast, 3, 'two accounts and the fee wallet');
  let refused: unknown;
  try {
    buildGenesis({ ...config, wallets: [{ address: addressToText(a.accounts[0].address), amount: {} }] });
  } catch (err) {
    refused = err;
  }
  assert.match(String((refused as Error).message), /given twice/);
});

test('a node name that cannot end a txid is refused', async () => {
  let refused: unknown;
  try {
    await startTestNode({ nodeName: 'bad name' });
  } catch (err) {
    refused = err;
  }
  assert.is((refused as { code?: string }).code, 'CONFIG_INVALID');
});

function httpsGet(url: string, ca: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

test('TLS: the self-signed development mode serves HTTPS a client can pin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-tls-'));
  try {
    const node = await startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } });
    try {
      assert.match(node.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(node.tls?.devCertPath, 'kept in the data dir');
      const cert = new X509Certificate(node.tls!.cert);
      assert.match(cert.subjectAltName!, /DNS:localhost/);
      assert.match(cert.subjectAltName!, /IP Address:127\.0\.0\.1/);
      const res = await httpsGet(`${node.url}/api/settings`, node.tls!.cert);
      assert.is(res.status, 200);
      assert.is(res.body.ok, true);
      const first = node.tls!.cert;
      await node.close();
      const again = await startTestNode({ memory: false, dataDir: dir, tls: { selfSigned: true } });
      assert.is(again.tls!.cert, first, 'the same certificate after a restart');
      await again.close();
    } finally {
      await node.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TLS: --tls-cert and --tls-key files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-tls-'));
  try {
    const { cert, key } = generateSelfSignedCert(['localhost', '127.0.0.1']);
    writeFileSync(join(dir, 'c.pem'), cert);
    writeFileSync(join(dir, 'k.pem'), key);
    const node = await startTestNode({ tls: { cert: join(dir, 'c.pem'), key: join(dir, 'k.pem'), selfSigned: false } });
    try {
      const res = await httpsGet(`${node.url}/api/node/status`, cert);
      assert.is(res.body.status.blockchain.header.height, 1, 'the start-up block');
    } finally {
      await node.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
