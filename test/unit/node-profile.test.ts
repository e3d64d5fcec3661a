// `tpkit node --for powerwallet`: the profile's flags (the user's own win) and the lines it prints.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyClientProfile, powerWalletLines } from '../../src/cli/node-profile.js';
import { parseNodeArgs } from '../../src/node/config/config.js';
import { thrownError } from '../helpers/helpers.js';

test("--for powerwallet: port 43280 and difficulty 0, the user's --port and --difficulty kept", () => {
  const plain = parseNodeArgs(applyClientProfile(['--for', 'powerwallet', '--memory']).argv).config;
  assert.equal({ port: plain.port, difficulty: plain.difficulty, memory: plain.memory }, { port: 43280, difficulty: 0, memory: true });
  const asked = applyClientProfile(['--for=PowerWallet', '--difficulty', '16', '--port=5000']);
  assert.is(asked.profile, 'powerwallet');
  const config = parseNodeArgs(asked.argv).config;
  assert.equal({ port: config.port, difficulty: config.difficulty }, { port: 5000, difficulty: 16 });
  assert.equal(applyClientProfile(['--port', '1']), { argv: ['--port', '1'] }, 'no profile: argv untouched');
});

test('--for with an unknown or missing client is CONFIG_INVALID naming the known ones', () => {
  for (const argv of [['--for', 'metamask'], ['--for'], ['--for=']]) {
    const err = thrownError(() => applyClientProfile(argv));
    assert.is(err.code, 'CONFIG_INVALID');
    assert.match(err.message, 'powerwallet');
  }
});

test('the printed lines: localStorage nodesList and chainId, .env.local with the faucet page', () => {
  const lines = powerWalletLines('http://127.0.0.1:43280', 1, 'tpkit', 16);
  assert.match(lines, `localStorage.nodesList = '[{"address":"http://127.0.0.1:43280","nodeId":"tpkit"}]'; localStorage.chainId = '1';`);
  assert.match(lines, 'VITE_DEFAULT_CHAIN_ID=1\n');
  assert.match(lines, 'VITE_FAUCET_THEPOWER_URL=http://127.0.0.1:43280/faucet.html\n');
  assert.match(lines, /VITE_PUBLIC_PROJECT_ID=[0-9a-f]{32}\n/);
  assert.match(lines, 'tpkit/tssdk');
});

test.run();
