// The node's settings table: every setting once, read the same way by the flag parser, the
// config file, startNode and --help; each bound written once and enforced from every side.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_MINE_DIFFICULTY } from '../../src/pow/bits.js';
import { applyConfigObject, defaultConfig, GENESIS_ONLY, NODE_FLAGS, nodeHelp, parseNodeArgs } from '../../src/node/config/config.js';
import { SETTINGS, defaultWords, settingByFlag, topLevelKeys } from '../../src/node/config/settings.js';

function refusal(run: () => unknown): { code?: string; message: string; details?: string } {
  try {
    run();
  } catch (err) {
    return err as { code?: string; message: string; details?: string };
  }
  throw new Error('expected a refusal');
}

const fromFile = (content: unknown) => parseNodeArgs(['--config', 'c.json'], () => JSON.stringify(content));

test('one key and one flag per setting; every flag of --help comes from the table', () => {
  const keys = SETTINGS.map((s) => s.key);
  assert.is(new Set(keys).size, keys.length, 'keys are unique');
  const flags = SETTINGS.flatMap((s) => (s.flag ? [s.flag] : []));
  assert.is(new Set(flags).size, flags.length, 'flags are unique');
  for (const flag of flags)
    assert.ok(
      NODE_FLAGS.some((f) => f.flag === flag),
      flag,
    );
  assert.equal(
    NODE_FLAGS.map((f) => f.flag).filter((f) => !flags.includes(f)),
    ['--config', '--reset', '--check', '--export', '--repair', '--for', '--help'],
  );
  const help = nodeHelp();
  for (const s of SETTINGS) {
    if (!s.flag || !s.value) continue;
    // A setting with no default (a TLS file) shows none; every other shows the table's.
    if (s.default === undefined && s.defaultText === undefined) assert.not.ok(help.includes(`${s.help} (default`), s.flag);
    else assert.ok(help.includes(`(default ${defaultWords(s)})`), s.flag);
  }
  assert.equal(GENESIS_ONLY, ['--alloc-group', '--alloc-last', '--fee-address', '--accounts', '--balance']);
});

test("the defaults are the table's", () => {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  for (const s of SETTINGS) {
    if (s.type === 'alloc-block' || typeof s.default === 'function') continue;
    const [head, tail] = s.key.split('.');
    const value = tail === undefined ? config[head] : (config[head] as Record<string, unknown>)[tail];
    assert.equal(value, s.default, s.key);
  }
  assert.equal(
    Object.keys(config).sort(),
    topLevelKeys()
      .filter((k) => k !== 'allocBlock')
      .sort(),
  );
});

test("the difficulty bound is the miner's, from the flag, the config file and startNode alike", () => {
  assert.is(settingByFlag('--difficulty')!.max, MAX_MINE_DIFFICULTY);
  assert.is(parseNodeArgs(['--difficulty', String(MAX_MINE_DIFFICULTY)]).config.difficulty, MAX_MINE_DIFFICULTY);
  assert.match(refusal(() => parseNodeArgs(['--difficulty', '65'])).message, /--difficulty: expected an integer from 0 to 64/);
  assert.match(refusal(() => fromFile({ difficulty: 65 })).message, /c.json: difficulty: expected an integer from 0 to 64/);
  assert.is(refusal(() => applyConfigObject(defaultConfig(), { difficulty: 512 }, 'startNode')).code, 'CONFIG_INVALID');
});

test('every integer bound holds at both ends, by flag and by config key', () => {
  for (const s of SETTINGS.filter((x) => x.type === 'integer')) {
    const [head, tail] = s.key.split('.');
    const asFile = (n: number) => (tail === undefined ? { [head]: n } : { [head]: { [tail]: n } });
    const read = (config: unknown) => (tail === undefined ? (config as any)[head] : (config as any)[head][tail]);
    for (const edge of [s.min!, s.max!]) {
      assert.is(read(fromFile(asFile(edge)).config), edge, `${s.key} = ${edge}`);
      if (s.flag) assert.is(read(parseNodeArgs([s.flag, String(edge)]).config), edge, `${s.flag} ${edge}`);
    }
    for (const outside of [s.min! - 1, s.max! + 1]) {
      assert.is(refusal(() => fromFile(asFile(outside))).code, 'CONFIG_INVALID', `${s.key} = ${outside}`);
      if (s.flag) assert.is(refusal(() => parseNodeArgs([s.flag!, String(outside)])).code, 'CONFIG_INVALID', `${s.flag} ${outside}`);
    }
  }
});

test('an unknown config key is refused with the valid keys and the closest name', () => {
  const old = refusal(() => fromFile({ blockTimeMs: 50 }));
  assert.is(old.code, 'CONFIG_INVALID');
  assert.match(old.message, /c.json: blockTimeMs: unknown config key: did you mean blockTime\?/);
  for (const key of topLevelKeys()) assert.ok(old.details!.includes(key), key);
  const nested = refusal(() => fromFile({ limits: { maxPendng: 5 } }));
  assert.match(nested.message, /limits.maxPendng: unknown limits key: did you mean maxPending\?/);
  assert.match(nested.details!, /maxPendingPerSender/);
  assert.not.match(refusal(() => fromFile({ colour: 1 })).message, /did you mean/);
});

test('one spelling: blockTime and balance are the keys of the config file, as of the flags and startNode', () => {
  const { config } = fromFile({ blockTime: 250, balance: { SK: '7' } });
  assert.is(config.blockTime, 250);
  assert.equal(config.balance, { SK: 7n });
  assert.is(parseNodeArgs(['--block-time', '250']).config.blockTime, 250);
  assert.match(refusal(() => fromFile({ faucet: { SK: 1 } })).message, /faucet: unknown config key/);
});

test.run();
