// The node's settings pinned against what is published: each default as docs/reference/node-flags.md
// and docs/guide/node-safety.md give it, each integer bound by what the value is (a TCP port,
// the 21-bit block field and 16-bit group of an address, the 24-bit wallet number, the miner's
// 64 bits, an hour, a signed 32-bit size); node-settings.test.ts checks the table is enforced,
// this checks the table itself. Then the parser's own rules: inline values, switches, repeatable
// flags, the combinations refused, amounts and wallets of a config file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableParallelism } from 'node:os';
import { applyConfigObject, checkConfig, defaultConfig, nodeHelp, parseNodeArgs } from '../../src/node/config/config.js';
import {
  DEFAULT_HTTP_PORT,
  DEFAULT_HTTPS_PORT,
  DEFAULT_WS_LIMITS,
  SETTINGS,
  defaultVerifyThreads,
  defaultWords,
  nestedKeys,
  settingByFlag,
  settingByKey,
  topLevelKeys,
} from '../../src/node/config/settings.js';

function refusal(run: () => unknown): { code?: string; message: string; field?: string; details?: string } {
  try {
    run();
  } catch (err) {
    return err as { code?: string; message: string; field?: string };
  }
  throw new Error('expected a refusal');
}

const fromFile = (content: unknown) => parseNodeArgs(['--config', 'c.json'], () => JSON.stringify(content));

test('integer bounds: what each value is', () => {
  const bounds = Object.fromEntries(SETTINGS.filter((s) => s.type === 'integer').map((s) => [s.key, [s.min, s.max]]));
  const limit = [1, 2 ** 31];
  assert.equal(bounds, {
    port: [0, 65535],
    chain: [0, 2 ** 21 - 1],
    difficulty: [0, 64],
    blockTime: [1, 3_600_000],
    allocGroup: [0, 0xffff],
    allocLast: [0, 0xfffffe],
    accounts: [0, 1000],
    verifyThreads: [0, 64],
    'limits.maxRequestBytes': limit,
    'limits.maxTxBytes': limit,
    'limits.maxSignatures': limit,
    'limits.maxPending': limit,
    'limits.maxPendingBytes': limit,
    'limits.maxPendingPerSender': limit,
    'limits.maxBlockTxs': limit,
    'limits.maxBlockBytes': limit,
    'limits.viewGasCap': limit,
    'limits.viewTimeoutMs': limit,
    'limits.viewQueue': limit,
    'limits.blockGasLimit': limit,
    'limits.slotCacheEntries': limit,
    'limits.blockTxTimeoutMs': limit,
    'limits.stallTimeoutMs': limit,
    'limits.wsConnections': limit,
    'limits.wsConnectionsPerAddress': limit,
    'limits.wsBufferedBytes': limit,
    minGasPrice: [1, 2 ** 31],
    'limits.maxQueuedPerSender': limit,
    'limits.maxQueued': limit,
    'limits.maxLogResults': limit,
    'limits.maxLogBlockRange': limit,
  });
});

test('defaults as the flag reference and the safety page publish them', () => {
  const c = defaultConfig();
  assert.equal(
    [c.host, c.port, c.dataDir, c.memory, c.chain, c.nodeName, c.difficulty, c.blockTime, c.instant, c.mineOnDemand, c.devApi, c.devApiBeyondLoopback],
    ['127.0.0.1', 43280, '.tpkit/node', false, 1, 'tpkit', 16, 1000, false, false, true, false],
  );
  assert.equal([DEFAULT_HTTP_PORT, DEFAULT_HTTPS_PORT], [43280, 43380]);
  assert.equal([c.allowHosts, c.allowOrigins, c.staticDir, c.allocGroup, c.allocLast, c.feeAddress, c.accounts, c.wallets, c.logLevel], [[], [], undefined, 10, undefined, undefined, 3, [], 'info']);
  assert.equal(c.fees, { SK: { base: 1n, baseextra: 64n, kb: 1000n } });
  assert.equal(c.balance, { SK: 5_000_000_000_000_000_000n });
  assert.is(c.minGasPrice, 1);
  assert.equal(c.tls, { selfSigned: false });
  assert.equal(c.limits, {
    maxRequestBytes: 262_144,
    maxTxBytes: 65_536,
    maxSignatures: 16,
    maxPending: 200_000,
    maxPendingBytes: 268_435_456,
    maxPendingPerSender: 10_000,
    maxBlockTxs: 20_000,
    maxBlockBytes: 4 * 1024 * 1024,
    viewGasCap: 50_000_000,
    viewTimeoutMs: 5_000,
    viewQueue: 64,
    blockGasLimit: 30_000_000,
    slotCacheEntries: 100_000,
    blockTxTimeoutMs: 10_000,
    stallTimeoutMs: 30_000,
    wsConnections: 128,
    wsConnectionsPerAddress: 64,
    wsBufferedBytes: 4_194_304,
    maxQueuedPerSender: 64,
    maxQueued: 1024,
    maxLogResults: 10_000,
    maxLogBlockRange: 100_000,
  });
  assert.equal(DEFAULT_WS_LIMITS, { connections: 128, connectionsPerAddress: 64, bufferedBytes: 4_194_304 });
  // Two defaults are fresh each time: changing one config leaves the next alone.
  c.fees.SK.base = 9n;
  c.limits.maxPending = 1;
  assert.is(defaultConfig().fees.SK.base, 1n);
  assert.is(defaultConfig().limits.maxPending, 200_000);
});

test('signature threads: one per core beyond the first, at most 4', () => {
  assert.equal(
    [1, 2, 3, 5, 6, 128].map((cores) => defaultVerifyThreads(cores)),
    [0, 1, 2, 4, 4, 4],
  );
  assert.is(defaultConfig().verifyThreads, defaultVerifyThreads(availableParallelism()));
  assert.is(defaultWords(settingByKey('verifyThreads')!), 'cores - 1, at most 4');
});

test('the table answers by key and by flag; nested keys are those of limits and tls', () => {
  assert.is(settingByFlag('--block-time')!.key, 'blockTime');
  assert.is(settingByFlag('--ws-max-buffered')!.key, 'limits.wsBufferedBytes');
  assert.is(settingByFlag('--nope'), undefined);
  assert.is(settingByKey('limits.maxPending')!.flag, '--max-pending');
  assert.is(settingByKey('maxPending'), undefined);
  assert.equal(nestedKeys('tls'), ['cert', 'key', 'selfSigned']);
  assert.ok(nestedKeys('limits').includes('maxBlockBytes'));
  assert.equal(nestedKeys('chain'), []);
  assert.ok(topLevelKeys().includes('limits') && topLevelKeys().includes('allocBlock'));
  assert.is(defaultWords(settingByKey('memory')!), 'off');
  assert.is(defaultWords(settingByKey('devApi')!), 'on');
  assert.is(defaultWords(settingByKey('chain')!), '1');
  assert.match(nodeHelp(), /^Usage: tpkit node \[options\]/);
  assert.match(nodeHelp(), /\n {2}--port N {2,}port to listen on, 0 = any free port \(default 43280, 43380 with TLS\)\n/);
});

test('flags: --flag=value, -h, a switch with a value refused, a flag without its value refused, unknown flags with the closest', () => {
  assert.is(parseNodeArgs(['--port=0']).config.port, 0);
  assert.is(parseNodeArgs(['--port=0']).portGiven, true);
  assert.is(parseNodeArgs([]).portGiven, false);
  assert.is(parseNodeArgs(['-h']).help, true);
  assert.is(parseNodeArgs(['--port', 'x', '--help']).help, true, '--help wins before values are read');
  assert.match(refusal(() => parseNodeArgs(['--memory=yes'])).message, /--memory: takes no value/);
  assert.match(refusal(() => parseNodeArgs(['--port'])).message, /--port: expects a value \(N\)/);
  assert.match(refusal(() => parseNodeArgs(['--blok-time', '5'])).message, /unknown flag: did you mean --block-time\?/);
  assert.not.match(refusal(() => parseNodeArgs(['port'])).message, /did you mean/);
  assert.is(parseNodeArgs(['--port', ' 7 ']).config.port, 7, 'an integer with spaces around it');
  assert.is(refusal(() => parseNodeArgs(['--port', '7.0'])).code, 'CONFIG_INVALID');
  assert.is(parseNodeArgs(['--no-dev-api']).config.devApi, false);
  assert.is(parseNodeArgs(['--dev-api']).config.devApiBeyondLoopback, true);
  assert.is(parseNodeArgs(['--dev-api']).config.devApi, true);
  assert.match(refusal(() => parseNodeArgs(['--dev-api', '--no-dev-api'])).message, /cannot be combined with --no-dev-api/);
  assert.is(refusal(() => parseNodeArgs(['--node-name', ''])).code, 'CONFIG_INVALID');
  assert.is(parseNodeArgs(['--log-level', 'debug']).config.logLevel, 'debug');
  assert.is(refusal(() => parseNodeArgs(['--log-level', 'loud'])).code, 'CONFIG_INVALID');
});

test('--flag=value splits at the first "=": a value may hold "=" itself', () => {
  let read = '';
  parseNodeArgs(['--config=conf=1.json'], (path) => {
    read = path;
    return '{}';
  });
  assert.is(read, 'conf=1.json');
});

test("repeatable flags: --fee and --balance replace the file's, --allow-host adds to them; --fee none charges nothing", () => {
  const read = (file: unknown, argv: string[]) => parseNodeArgs(['--config', 'c.json', ...argv], () => JSON.stringify(file)).config;
  const file = { fees: { FTT: { base: 2, kb: 5 } }, balance: { FTT: '9' }, allowHosts: ['a.example'] };
  const fromFileOnly = read(file, []);
  assert.equal(fromFileOnly.fees, { FTT: { base: 2n, baseextra: 0n, kb: 5n } });
  const flags = read(file, ['--fee', 'SK:1:2:3', '--fee', 'XY:4:5:6', '--balance', 'SK:10', '--allow-host', 'b.example']);
  assert.equal(flags.fees, { SK: { base: 1n, baseextra: 2n, kb: 3n }, XY: { base: 4n, baseextra: 5n, kb: 6n } });
  assert.equal(flags.balance, { SK: 10n });
  assert.equal(flags.allowHosts, ['a.example', 'b.example']);
  assert.equal(read(file, ['--fee', 'none']).fees, {});
  assert.equal(fromFile({ fees: null }).config.fees, {});
  for (const bad of ['SK:1:2', 'SK:1:2:3:4', 'SK:-1:2:3', 'S K:1:2:3']) assert.is(refusal(() => parseNodeArgs(['--fee', bad])).field, '--fee', bad);
  for (const bad of ['SK', 'SK:1:2', 'SK:x']) assert.is(refusal(() => parseNodeArgs(['--balance', bad])).field, '--balance', bad);
  assert.equal(parseNodeArgs(['--balance', 'SK:18446744073709551616']).config.balance, { SK: 18446744073709551616n });
});

test('combinations refused: TLS halves, self-signed with a certificate, instant with on-demand, on-demand without the dev API, --reset with --memory, --export without --check, --repair with --check', () => {
  const message = (argv: string[]) => refusal(() => parseNodeArgs(argv)).message;
  assert.match(message(['--tls-cert', 'c.pem']), /give both the certificate and its key/);
  assert.match(message(['--tls-key', 'k.pem']), /give both the certificate and its key/);
  assert.match(message(['--tls-cert', 'c', '--tls-key', 'k', '--tls-self-signed']), /--tls-self-signed: cannot be combined with --tls-cert/);
  assert.match(message(['--instant', '--mine-on-demand']), /cannot be combined with --instant/);
  assert.match(message(['--mine-on-demand', '--no-dev-api']), /no block could ever be made/);
  assert.match(message(['--reset', '--memory']), /a --memory node starts fresh anyway/);
  assert.match(message(['--export', 'out.jsonl']), /--export: is a part of --check/);
  assert.match(message(['--check', '--memory']), /--check: checks the data dir; --memory has none/);
  assert.match(message(['--check', '--reset']), /--reset would delete it/);
  assert.match(message(['--repair', '--check']), /--check only reads it/);
  assert.match(message(['--repair', '--memory']), /--repair: rebuilds the chain in the data dir; --memory has none/);
  assert.match(message(['--repair', '--reset']), /--repair: .*--reset would delete it/);
  assert.equal(parseNodeArgs(['--check', '--export', 'out.jsonl']).check, { export: 'out.jsonl' });
  assert.equal(parseNodeArgs(['--check']).check, {});
  assert.is(parseNodeArgs(['--repair']).repair, true);
  assert.is(parseNodeArgs(['--reset']).reset, true);
  assert.is(parseNodeArgs([]).check, undefined);
  assert.is(parseNodeArgs([]).repair, undefined);
  assert.not.throws(() => checkConfig({ ...defaultConfig(), tls: { cert: 'c', key: 'k', selfSigned: false } }));
  assert.not.throws(() => checkConfig({ ...defaultConfig(), mineOnDemand: true }));
});

test('genesis-only settings given are reported once each, from flags and from the file', () => {
  const parsed = parseNodeArgs(['--config', 'c.json', '--accounts', '2', '--accounts', '4', '--port', '1'], () => JSON.stringify({ allocGroup: 3, port: 5 }));
  assert.equal(parsed.genesisFlags, ['--accounts', 'c.json: allocGroup']);
  assert.is(parsed.config.accounts, 4, 'the last flag given wins');
  assert.is(parsed.config.port, 1);
  assert.is(parseNodeArgs(['--config', 'c.json'], () => '{"port": 5}').portGiven, true);
  assert.is(parseNodeArgs(['--config', 'c.json'], () => '{"host": "::1"}').portGiven, false);
  const unreadable = refusal(() => parseNodeArgs(['--config', 'c.json'], () => '{'));
  assert.is(unreadable.field, '--config');
  assert.match(unreadable.message, /--config c.json: cannot read JSON/);
});

test('a config file: amounts as numbers, bigints or decimal text; wallets checked field by field; allocBlock spells group, block and last', () => {
  const base = defaultConfig();
  const c = applyConfigObject(base, { balance: { SK: 5, FTT: ' 7 ', BIG: 18446744073709551616n }, fees: { SK: { base: '3', baseextra: 0, kb: 9 } } }, 'x');
  assert.equal(c.balance, { SK: 5n, FTT: 7n, BIG: 18446744073709551616n });
  assert.equal(base.balance, { SK: 5_000_000_000_000_000_000n }, 'the config given is not changed');
  for (const bad of [-1, 1.5, '-2', '0x10', -1n, null]) assert.is(refusal(() => applyConfigObject(base, { balance: { SK: bad } }, 'x')).field, 'x: balance.SK', String(bad));
  assert.is(refusal(() => applyConfigObject(base, { balance: [1] }, 'x')).field, 'x: balance');
  // A bigint where it does not fit is refused like any other value, not a TypeError of JSON.stringify.
  assert.match(refusal(() => applyConfigObject(base, { balance: { SK: -1n } }, 'x')).message, /^x: balance.SK: expected a non-negative integer .*, got -1n$/);
  assert.match(refusal(() => applyConfigObject(base, { port: 5n }, 'x')).message, /^x: port: expected an integer from 0 to 65535, got 5n$/);
  assert.match(refusal(() => applyConfigObject(base, { nodeName: 1n }, 'x')).message, /got 1n$/);
  assert.match(refusal(() => applyConfigObject(base, { logLevel: 2n }, 'x')).message, /got 2n$/);
  assert.match(refusal(() => applyConfigObject(base, { nodeName: undefined, dataDir: null }, 'x')).message, /^x: dataDir: expected a non-empty string, got null$/);
  assert.is(refusal(() => applyConfigObject(base, { balance: { ['C'.repeat(33)]: 1 } }, 'x')).code, 'CONFIG_INVALID');
  assert.is(refusal(() => applyConfigObject(base, { fees: { SK: 5 } }, 'x')).field, 'x: fees.SK');
  assert.is(refusal(() => applyConfigObject(base, { fees: [] }, 'x')).field, 'x: fees');
  const w = applyConfigObject(base, { wallets: [{ address: 'AA100000001677722412', publicKey: '02ab', amount: { SK: '10' }, seq: 3, t: 0 }, { address: 'AA100000001677722412' }] }, 'x').wallets;
  assert.equal(w, [
    { address: 'AA100000001677722412', publicKey: '02ab', amount: { SK: 10n }, seq: 3n, t: 0 },
    { address: 'AA100000001677722412', publicKey: undefined, amount: {}, seq: undefined, t: undefined },
  ]);
  assert.is(refusal(() => applyConfigObject(base, { wallets: {} }, 'x')).field, 'x: wallets');
  assert.is(refusal(() => applyConfigObject(base, { wallets: [5] }, 'x')).field, 'x: wallets[0]');
  assert.is(refusal(() => applyConfigObject(base, { wallets: [{ address: '' }] }, 'x')).field, 'x: wallets[0].address');
  assert.is(refusal(() => applyConfigObject(base, { wallets: [{ address: 'A', t: -1 }] }, 'x')).field, 'x: wallets[0].t');
  assert.is(refusal(() => applyConfigObject(base, { wallets: [{ address: 'A', seq: -1 }] }, 'x')).field, 'x: wallets[0].seq');
  const alloc = applyConfigObject(base, { allocBlock: { group: 12, block: 5, last: 100 } }, 'x');
  assert.equal([alloc.allocGroup, alloc.chain, alloc.allocLast], [12, 5, 100]);
  assert.equal([applyConfigObject(base, { allocBlock: {} }, 'x').chain], [1]);
  assert.is(refusal(() => applyConfigObject(base, { allocBlock: { block: 2 ** 21 } }, 'x')).field, 'x: allocBlock.block');
  assert.is(refusal(() => applyConfigObject(base, { allocBlock: { last: 0xffffff } }, 'x')).field, 'x: allocBlock.last');
  assert.is(refusal(() => applyConfigObject(base, { allocBlock: { group: 0x10000 } }, 'x')).field, 'x: allocBlock.group');
  assert.is(refusal(() => applyConfigObject(base, { allocBlock: null }, 'x')).field, 'x: allocBlock');
  assert.is(refusal(() => applyConfigObject(base, { limits: 5 }, 'x')).field, 'x: limits');
  assert.is(refusal(() => applyConfigObject(base, [], 'x')).field, 'x');
  assert.is(applyConfigObject(base, { port: undefined, limits: { maxPending: undefined } }, 'x').port, 43280);
  assert.is(applyConfigObject(base, { memory: 1 }, 'x').memory, true);
  assert.equal(applyConfigObject(base, { tls: { cert: 'c', key: 'k' } }, 'x').tls, { selfSigned: false, cert: 'c', key: 'k' });
  assert.is(refusal(() => applyConfigObject(base, { allowHosts: 'a.example' }, 'x')).field, 'x: allowHosts');
  assert.is(refusal(() => applyConfigObject(base, { allowOrigins: [5] }, 'x')).field, 'x: allowOrigins');
});

test.run();
