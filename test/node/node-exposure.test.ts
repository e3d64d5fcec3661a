// What a node listening beyond this machine says and does (docs/guide/security.md): on loopback
// no exposure warning; on any other address a warning on start, and the development API off
// (403 DEV_API_DISABLED) unless --dev-api keeps it on, which the warning then names. Also a
// --tls-cert that cannot be read is the flag's problem, not the data dir's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../src/node/base/log.js';
import { startTestNode, type TestConfig } from '../helpers/node-helpers.js';
import { rejection } from '../helpers/helpers.js';

/** Starts a node with `overrides`, and gives back its warnings and what GET /api/dev/accounts answered (on 127.0.0.1). */
async function started(overrides: TestConfig): Promise<{ warnings: string[]; devStatus: number; devError?: string }> {
  const warnings: string[] = [];
  const logger: Logger = { level: 'warn', error: () => {}, warn: (m) => warnings.push(m), info: () => {}, debug: () => {} };
  const node = await startTestNode(overrides, { logger });
  try {
    const res = await fetch(`http://127.0.0.1:${new URL(node.url).port}/api/dev/accounts`);
    const body = (await res.json()) as { error?: string };
    return { warnings: warnings.filter((w) => w.includes('beyond this machine')), devStatus: res.status, devError: body.error };
  } finally {
    await node.close();
  }
}

test('on loopback: no exposure warning, the development API on', async () => {
  const { warnings, devStatus } = await started({ host: '127.0.0.1' });
  assert.equal(warnings, []);
  assert.is(devStatus, 200);
});

test('on 0.0.0.0 without --dev-api: one warning that the development API is off and --dev-api turns it on; it answers 403 DEV_API_DISABLED', async () => {
  const { warnings, devStatus, devError } = await started({ host: '0.0.0.0' });
  assert.is(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /^listening on 0\.0\.0\.0, beyond this machine: the development API .* is off; --dev-api turns it on$/);
  assert.equal([devStatus, devError], [403, 'DEV_API_DISABLED']);
});

test('on 0.0.0.0 with --dev-api: one warning that anyone reaching the port can use the node, its faucet and its development keys; the development API on', async () => {
  const { warnings, devStatus } = await started({ host: '0.0.0.0', devApiBeyondLoopback: true });
  assert.equal(warnings, ['listening on 0.0.0.0, beyond this machine: anyone who reaches the port can use the node, its faucet and its development keys (--dev-api)']);
  assert.is(devStatus, 200);
});

test('on 0.0.0.0 with --no-dev-api: one warning that anyone reaching the port can use the node, no word of a faucet', async () => {
  const { warnings, devStatus, devError } = await started({ host: '0.0.0.0', devApi: false });
  assert.equal(warnings, ['listening on 0.0.0.0, beyond this machine: anyone who reaches the port can use the node']);
  assert.equal([devStatus, devError], [403, 'DEV_API_DISABLED']);
});

test('a --tls-cert file that is not there: CONFIG_INVALID naming --tls-cert and the path, not a data-dir problem', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-exposure-'));
  try {
    const cert = join(dir, 'none.pem');
    const err = await rejection(startTestNode({ memory: false, dataDir: dir, tls: { cert, key: join(dir, 'key.pem'), selfSigned: false } }));
    assert.equal([err.code, err.field], ['CONFIG_INVALID', '--tls-cert']);
    assert.is(err.shortMessage, `--tls-cert: cannot read ${cert}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
