// The wallet commands as a person runs them, against a real node at difficulty 12:
// keygen -> register -> fund from a development account -> send back -> balance, status,
// settings; and the documented exit codes for what goes wrong.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '../../src/bytes.js';
import { openKeyFile } from '../../src/cli/key-file.js';
import { addressToText } from '../../src/codec/address.js';
import { createLogger } from '../../src/node/base/log.js';
import { startTestNode, type TestNode } from '../helpers/node-helpers.js';
import { runTpkit, spawnTpkit, type CliRun, type CliRunOptions } from '../helpers/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-wallet-cli-'));
const PASSPHRASE = 'a passphrase for tests';
let node: TestNode;
let dev: { key: string; address: string };

function tpkit(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return runTpkit(args, { ...options, env: { TPKIT_PASSPHRASE: PASSPHRASE, TPKIT_NODE: node.url, ...options.env } });
}

test.before(async () => {
  node = await startTestNode({ difficulty: 12, accounts: 1, fees: { SK: { base: 1n, baseextra: 64n, kb: 1000n } } });
  const account = node.chain.accounts[0];
  dev = { key: bytesToHex(account.secretKey), address: addressToText(account.address) };
});

test.after(async () => {
  await node.close();
});

const walletFile = join(dir, 'wallet.key');
const devFile = join(dir, 'dev.key');
let address = '';

test('keygen, register (address printed and saved in the key file), import the dev key', async () => {
  const made = await tpkit(['keygen', '--out', walletFile]);
  assert.is(made.code, 0, made.err);
  assert.match(made.out, /encrypted, mode 0600/);
  assert.not.match(made.out, /secret key/);
  const reg = await tpkit(['register', '--key', walletFile, '--json']);
  assert.is(reg.code, 0, reg.err);
  const result = JSON.parse(reg.out);
  assert.is(result.difficulty, 12);
  address = result.address;
  assert.is(JSON.parse(readFileSync(walletFile, 'utf8')).address, address);
  assert.ok((await tpkit(['status', result.txid])).out.includes('included'));
  const imported = await tpkit(['keygen', '--import', '--out', devFile], { stdin: `${dev.key}\n` });
  assert.is(imported.code, 0, imported.err);
});

test('fund from the dev account, send back with the automatic fee, read balance and status', async () => {
  const fund = await tpkit(['send', '--key', devFile, '--from', dev.address, '--to', address, '--amount', '1000000', '--currency', 'SK', '--json']);
  assert.is(fund.code, 0, fund.err);
  assert.is(JSON.parse(fund.out).state, 'included');
  const back = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '250000', '--currency', 'SK', '--message', 'thanks']);
  assert.is(back.code, 0, back.err);
  const fee = BigInt(/fee\s+(\d+) SK/.exec(back.out)![1]);
  const txid = /txid\s+(\S+)/.exec(back.out)![1];
  const balance = JSON.parse((await tpkit(['balance', '--key', walletFile, '--json'])).out);
  assert.is(balance.amount.SK, String(1_000_000n - 250_000n - fee));
  assert.is(balance.seq, '1');
  const status = JSON.parse((await tpkit(['status', txid, '--json'])).out);
  assert.is(status.state, 'included');
  assert.is(status.block, balance.lastblk);
  assert.is(JSON.parse((await tpkit(['settings', 'current.register.diff'])).out), 12);
});

test('exit codes: refused before signing 1, failed in the block 1, node refused 1, usage 2, unreachable 3; errors say what to do', async () => {
  const poor = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '999999999', '--currency', 'SK']);
  assert.is(poor.code, 1);
  assert.match(poor.err, /^tpkit send: 999999999 SK is more than wallet AA\d{18} holds \(\d+ SK\): send less, or fund the wallet first.* \[PRECHECK_FAILED\]\n  nothing was signed or sent\./);
  const reused = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '1', '--currency', 'SK', '--seq', '1', '--json']);
  assert.is(reused.code, 1);
  assert.match(reused.err, /bad_seq/);
  const { error } = JSON.parse(reused.out);
  assert.is(error.code, 'TX_FAILED');
  assert.is(error.reason, 'bad_seq');
  assert.is(error.exitCode, 1);
  assert.match(error.advice, /without --seq/);
  // status of that failed transaction: "failed" and exit 1, with --json and without, waiting or not
  for (const extra of [[], ['--json'], ['--wait']]) {
    const failed = await tpkit(['status', error.txid, ...extra]);
    assert.is(failed.code, 1, `status ${extra.join(' ')} of a failed transaction exits 1`);
    assert.match(failed.out, extra[0] === '--json' ? /"state": "failed"/ : /failed: bad_seq/);
  }
  const typo = await tpkit(['send', '--key', walletFile, '--to', 'AA100000001677722413', '--amount', '1', '--currency', 'SK'], { env: { TPKIT_PASSPHRASE: 'not asked' } });
  assert.is(typo.code, 2);
  assert.match(typo.err, /\[ADDRESS_CHECKSUM\]\n  a digit is mistyped/);
  const unknown = await tpkit(['balance', 'AA100000001677722412']);
  assert.is(unknown.code, 1);
  assert.match(unknown.err, /10003.*\[API_ERROR\]\n  no wallet has that address/s);
  const decimal = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '1.5', '--currency', 'SK']);
  assert.is(decimal.code, 2);
  assert.match(decimal.err, /whole number/);
  assert.is((await tpkit(['send', '--nope'])).code, 2);
  assert.is((await tpkit(['balance'])).code, 2);
  const offline = await tpkit(['balance', dev.address, '--node', 'http://127.0.0.1:9']);
  assert.is(offline.code, 3);
  assert.match(offline.err, /tpkit node. running\?/);
  const wrong = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '1', '--currency', 'SK'], { env: { TPKIT_PASSPHRASE: 'wrong' } });
  assert.is(wrong.code, 1);
  assert.match(wrong.err, /KEYFILE_PASSPHRASE/);
  const insecure = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '1', '--currency', 'SK', '--node', 'http://192.0.2.1:43280']);
  assert.is(insecure.code, 1);
  assert.match(insecure.err, /INSECURE_TRANSPORT/);
});

test('plain hex key files still work with a warning; --no-wait, then status --wait; bad keygen input', async () => {
  const plainFile = join(dir, 'dev-plain.key');
  const plain = await tpkit(['keygen', '--import', '--plain', '--out', plainFile], { stdin: dev.key });
  assert.is(plain.code, 0, plain.err);
  assert.match(plain.err, /unencrypted/);
  const sent = await tpkit(['send', '--key', plainFile, '--from', dev.address, '--to', address, '--amount', '5', '--currency', 'SK', '--no-wait', '--json']);
  assert.is(sent.code, 0, sent.err);
  assert.match(sent.err, /plain hex; encrypt it with\n  tpkit keygen --import --out NEW_FILE < /);
  const { txid, state } = JSON.parse(sent.out);
  assert.is(state, 'submitted');
  const waited = JSON.parse((await tpkit(['status', txid, '--wait', '--json'])).out);
  assert.is(waited.state, 'included');
  const notHex = await tpkit(['keygen', '--import', '--out', join(dir, 'never.key')], { stdin: 'not a key' });
  assert.is(notHex.code, 2);
  assert.match(notHex.err, /--import expected a secret key as 64 hex digits/);
  assert.not.match(notHex.err, /not a key/, 'the input is not echoed');
  const empty = await tpkit(['keygen', '--out', join(dir, 'never.key')], { env: { TPKIT_PASSPHRASE: '' } });
  assert.is(empty.code, 2);
  assert.match(empty.err, /passphrase is empty/);
  const corrupt = join(dir, 'corrupt.key');
  writeFileSync(corrupt, '{"format":"tpkit-key/1"');
  const unreadable = await tpkit(['register', '--key', corrupt]);
  assert.is(unreadable.code, 1);
  assert.match(unreadable.err, /\[KEYFILE_INVALID\]\n  pass the file written by `tpkit keygen --out`/);
});

/** Runs tpkit on a pseudo-terminal (util-linux `script`), answering each prompt as it appears. */
function onTerminal(args: string[], answers: [RegExp, string | (() => string)][], early?: string): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TPKIT_NODE: node.url };
    delete env.TPKIT_PASSPHRASE;
    const child = spawnTpkit(args, { env, tty: true });
    if (early !== undefined) child.stdin.write(early);
    let screen = '';
    // Only what appeared since the last answer is matched: the same prompt may come again.
    let answeredAt = 0;
    let typedAhead = 0;
    // A prompt after the last answer (a fourth try, say) would wait for ever: it ends the
    // command at once, and a deadline ends any other wait, so the test fails in seconds.
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk) => {
      screen += chunk;
      const next = answers[0];
      if (next && next[0].test(screen.slice(answeredAt))) {
        answers.shift();
        // An answer typed before its prompt (at "checking", say) is owed to the next prompt.
        // It is typed as a person would, a moment after the screen showed the cue: the CLI
        // throws away what arrives in the first instants of its hold, typed before it began.
        const ahead = !/Passphrase: /.test(screen.slice(answeredAt));
        if (ahead) typedAhead += 1;
        answeredAt = screen.length;
        const answer = typeof next[1] === 'string' ? next[1] : next[1]();
        if (ahead) setTimeout(() => child.stdin.write(`${answer}\n`), 300);
        else child.stdin.write(`${answer}\n`);
      } else if (!next && typedAhead > 0 && /Passphrase: /.test(screen.slice(answeredAt))) {
        typedAhead -= 1;
        answeredAt = screen.length;
      } else if (!next && /Passphrase: /.test(screen.slice(answeredAt))) {
        screen += '\n[asked again after the last answer]';
        child.kill('SIGKILL');
      }
    });
    child.on('error', (err) => reject(new Error(`util-linux 'script' is needed for the terminal test: ${err.message}`)));
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, screen });
    });
  });
}

test('on a terminal keygen asks for the passphrase twice and echoes neither; a mismatch is a usage error', async () => {
  const file = join(dir, 'typed.key');
  const secret = 'typed on the terminal';
  const made = await onTerminal(
    ['keygen', '--out', file],
    [
      [/Passphrase: /, secret],
      [/Repeat passphrase: /, secret],
    ],
  );
  assert.is(made.code, 0, made.screen);
  assert.match(made.screen, /encrypted, mode 0600/);
  assert.not.ok(made.screen.includes(secret), 'the passphrase is not echoed');
  const opened = await openKeyFile(file, async () => secret);
  assert.ok(opened.secretKey.length === 32 && !opened.info.plain, 'sealed under the typed passphrase');
  const differ = await onTerminal(
    ['keygen', '--out', join(dir, 'never2.key')],
    [
      [/Passphrase: /, secret],
      [/Repeat passphrase: /, 'something else'],
    ],
  );
  assert.is(differ.code, 2);
  assert.match(differ.screen, /The two passphrases differ/);
  // three tries at the prompt, as sudo and ssh give; then the command stops
  const wrong = 'wrong passphrase';
  const exportArgs = ['export', '--key', file, '--address', address, '--out', join(dir, 'never-export.json')];
  const tried = await onTerminal(exportArgs, [
    [/Passphrase: /, wrong],
    [/Passphrase: /, wrong],
    [/Passphrase: /, wrong],
  ]);
  assert.is(tried.code, 1, tried.screen);
  assert.is(tried.screen.match(/Passphrase: /g)?.length, 3, tried.screen);
  assert.match(tried.screen, /Wrong passphrase; 2 tries left\.[^]*Wrong passphrase; 1 try left\.[^]*KEYFILE_PASSPHRASE/);
  // a mistyped passphrase, then the right one: the key opens, and export goes on to ask
  // for its own passphrase (too short here, so it stops there)
  const second = await onTerminal(exportArgs, [
    [/Passphrase: /, wrong],
    [/Passphrase: /, secret],
    [/Passphrase for the export file: /, 'short'],
  ]);
  assert.match(second.screen, /Wrong passphrase; 2 tries left\.[^]*Passphrase for the export file: [^]*at least 12 characters/, second.screen);
  assert.not.match(second.screen, /KEYFILE_PASSPHRASE/);
  assert.not.ok(second.screen.includes(secret), 'the passphrase is not echoed');
  // --out is checked before the prompts, but a file can appear while they wait (another
  // export, an editor): it is still never overwritten, the write itself refuses it.
  const target = join(dir, 'appeared.export');
  const raced = await onTerminal(
    ['export', '--key', file, '--address', address, '--out', target],
    [
      [/Passphrase: /, secret],
      [/Passphrase for the export file: /, 'a long export passphrase'],
      [
        /Repeat it: /,
        () => {
          writeFileSync(target, 'written meanwhile\n');
          return 'a long export passphrase';
        },
      ],
    ],
  );
  assert.is(raced.code, 2, raced.screen);
  assert.match(raced.screen, /appeared\.export cannot be written: it already exists \(never overwritten\)/);
  assert.is(readFileSync(target, 'utf8'), 'written meanwhile\n');
  // keygen alike: a key file that appears while the passphrase is typed is left as it was
  const keyTarget = join(dir, 'appeared.key');
  const keyRaced = await onTerminal(
    ['keygen', '--out', keyTarget],
    [
      [/Passphrase: /, secret],
      [
        /Repeat passphrase: /,
        () => {
          writeFileSync(keyTarget, 'written meanwhile\n');
          return secret;
        },
      ],
    ],
  );
  assert.is(keyRaced.code, 2, keyRaced.screen);
  assert.match(keyRaced.screen, /appeared\.key cannot be written: it already exists \(an existing key file is never overwritten\)/);
  assert.is(readFileSync(keyTarget, 'utf8'), 'written meanwhile\n');
  // send checks the wallet before it asks: this key does not own the development wallet,
  // so no passphrase is asked for at all
  const sent = await onTerminal(['send', '--key', file, '--from', dev.address, '--to', address, '--amount', '1', '--currency', 'SK'], []);
  assert.is(sent.code, 1, sent.screen);
  assert.match(sent.screen, /is not the key of wallet/);
  assert.not.match(sent.screen, /Passphrase: /);
});

test('on a terminal, text typed before the prompt is ignored (it was echoed), and a repeat typed ahead answers the second prompt', async () => {
  const file = join(dir, 'typed-ahead.key');
  const secret = 'typed ahead on the terminal';
  // The early line is written at once, before the command can show its prompt; both
  // answers then come in one write, so the second prompt must find its line already read.
  const made = await onTerminal(['keygen', '--out', file], [[/Passphrase: /, `${secret}\n${secret}`]], 'written too early\n');
  assert.is(made.code, 0, made.screen);
  assert.match(made.screen, /typed before the prompt was shown on the screen, so it is ignored/);
  assert.match(made.screen, /Repeat passphrase: /);
  assert.not.ok(made.screen.includes(secret), 'the passphrase is not echoed');
  const opened = await openKeyFile(file, async () => secret);
  assert.ok(!opened.info.plain, 'sealed under the passphrase typed at the prompt, not the early text');
});

test('send on a terminal: a passphrase typed while it checks with the node is not echoed, and answers the prompt', async () => {
  // The node answers the checks slowly, so the passphrase is surely typed before the prompt.
  const slow = await node.post('/api/dev/faults', JSON.stringify({ rules: [{ path: 'address', action: 'delay', delayMs: 1500, count: 2 }] }));
  assert.is(slow.status, 200);
  const sent = await onTerminal(['send', '--key', walletFile, '--to', dev.address, '--amount', '1', '--currency', 'SK'], [[/checking/, PASSPHRASE]]);
  assert.is(sent.code, 0, sent.screen);
  assert.match(sent.screen, /Passphrase: [^]*txid {5}\S+-tpkit/);
  assert.not.ok(sent.screen.includes(PASSPHRASE), 'the passphrase is not echoed');
  assert.not.match(sent.screen, /ignored/, 'typed after the command started: used, not thrown away');
});

test('a wrong passphrase from a file or $TPKIT_PASSPHRASE fails at once: nothing can type it again', async () => {
  const file = join(dir, 'typed.key');
  const run = await tpkit(['export', '--key', file, '--address', address, '--out', join(dir, 'never-export.json')], {
    env: { TPKIT_PASSPHRASE: 'not it', TPKIT_WALLET_PASSPHRASE: 'a long export passphrase' },
  });
  assert.is(run.code, 1);
  assert.match(run.err, /KEYFILE_PASSPHRASE/);
  assert.not.match(run.err, /tries left/);
});

// A wrong passphrase shows whether the key file was opened (scrypt, seconds): each refusal
// below must come first, so the key file is never opened.
test('send with the node down, and export with no export passphrase, refuse before opening the key file', async () => {
  const notIt = { TPKIT_PASSPHRASE: 'not the passphrase' };
  const down = await tpkit(['send', '--key', walletFile, '--to', dev.address, '--amount', '1', '--currency', 'SK', '--node', 'http://127.0.0.1:9'], { env: notIt });
  assert.is(down.code, 3, down.err);
  assert.match(down.err, /NETWORK_ERROR/);
  assert.not.match(down.err, /KEYFILE_PASSPHRASE/);
  const noExportPassphrase = await tpkit(['export', '--key', walletFile, '--out', join(dir, 'never-export.json')], { env: notIt });
  assert.is(noExportPassphrase.code, 2, noExportPassphrase.err);
  assert.match(noExportPassphrase.err, /The export needs a passphrase and there is no terminal to ask on/);
  const shortExport = await tpkit(['export', '--key', walletFile, '--out', join(dir, 'never-export.json')], { env: { ...notIt, TPKIT_WALLET_PASSPHRASE: 'short' } });
  assert.is(shortExport.code, 2);
  assert.match(shortExport.err, /at least 12 characters/);
});

test('Ctrl-C while mining stops the workers and exits 130; the key file is left as it was', async () => {
  const requests: string[] = [];
  let settingsRead: () => void = () => {};
  const asked = new Promise<void>((resolve) => (settingsRead = resolve));
  const hard = await startTestNode(
    { difficulty: 40 },
    {
      logger: createLogger('debug', (line) => {
        requests.push(line);
        if (line.includes('/api/settings')) settingsRead();
      }),
    },
  );
  try {
    const keyFile = join(dir, 'interrupted.key');
    assert.is((await tpkit(['keygen', '--out', keyFile])).code, 0);
    const before = readFileSync(keyFile, 'utf8');
    let sentAt = 0;
    const run = await tpkit(['register', '--key', keyFile, '--node', hard.url, '--max-difficulty', '40'], {
      started: (child) => {
        asked.then(() =>
          setTimeout(() => {
            sentAt = performance.now();
            child.kill('SIGINT');
          }, 300),
        );
      },
    });
    const stopMs = performance.now() - sentAt;
    assert.is(run.code, 130, run.err);
    assert.match(run.err, /tpkit register: interrupted/);
    console.log(`  register exited ${stopMs.toFixed(0)} ms after Ctrl-C`);
    assert.is(readFileSync(keyFile, 'utf8'), before);
    assert.not.ok(
      requests.some((line) => line.includes('/api/tx/new')),
      'nothing was submitted',
    );
  } finally {
    await hard.close();
  }
});

test.run();
