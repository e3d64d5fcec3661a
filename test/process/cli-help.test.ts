// `--help` of every command reads alike: --allow-insecure (a rule for submitting
// transactions over plain HTTP) only where a transaction is submitted, and placeholders in
// one style, upper case (FILE, N), never <n>.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';

const COMMANDS = ['decode', 'address', 'keygen', 'export', 'register', 'balance', 'send', 'status', 'tx', 'block', 'settings', 'mine', 'bench', 'node', 'faucet', 'accounts', 'dev'];
const SUBMITTING = ['register', 'send'];

const helps = new Map<string, string>();

test.before(async () => {
  for (const command of COMMANDS) {
    const run = await runTpkit([command, '--help']);
    assert.is(run.code, 0, `${command} --help: ${run.err}`);
    helps.set(command, run.out);
  }
});

test('--allow-insecure is offered by the commands that submit transactions, and by no other', () => {
  for (const [command, help] of helps) assert.is(help.includes('--allow-insecure'), SUBMITTING.includes(command), command);
});

test('a read-only command refuses --allow-insecure as an unknown option', async () => {
  const run = await runTpkit(['balance', 'AA100000001677721780', '--allow-insecure']);
  assert.is(run.code, 2);
  assert.match(run.err, /unknown option '--allow-insecure'/);
});

test('placeholders are upper case words, never <n> or <file>', () => {
  for (const [command, help] of helps) assert.not.match(help, /<[a-z][a-z-]*>/, `${command}: ${/<[a-z][a-z-]*>/.exec(help)?.[0]}`);
});

test.run();
