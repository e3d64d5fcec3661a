// `tpkit register` against a node that stalls or asks for the impossible: the command says
// at once what it waits for, even when stderr is no terminal, and a difficulty above
// --max-difficulty ends it with the expected time and what to do, nothing mined.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTpkit } from '../helpers/cli-run.js';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-register-hostile-'));
const keyFile = join(dir, 'plain.key');
writeFileSync(keyFile, `${'22'.repeat(32)}\n`);

/** A node whose settings answer is `answer` (or never comes); everything else is 404. */
async function nodeWith(answer: ((res: ServerResponse) => void) | undefined) {
  const held: ServerResponse[] = [];
  const requests: string[] = [];
  const server = createServer((req, res) => {
    // The node's status (which register reads before the passphrase) answers as a node's does.
    if (req.url === '/api/node/status') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"status":{"nodename":"hostile","blockchain":{"header":{"chain":1,"height":1}}}}');
      return;
    }
    requests.push(`${req.method} ${req.url}`);
    if (req.url === '/api/settings/current/register') {
      if (answer) answer(res);
      else held.push(res);
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"ok":false,"code":404,"msg":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('a node that never answers: stderr names the stage and the node before any answer; Ctrl-C exits 130', async () => {
  const node = await nodeWith(undefined);
  try {
    let seen = '';
    const run = await runTpkit(['register', '--key', keyFile, '--node', node.url], {
      started: (child) => {
        // The deadline makes a silent command fail in seconds, not at the file's time limit.
        const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.stderr!.on('data', (chunk) => {
          seen += chunk;
          if (seen.includes('register: reading the difficulty')) {
            clearTimeout(deadline);
            child.kill('SIGINT');
          }
        });
      },
    });
    assert.match(run.err, new RegExp(`register: reading the difficulty from ${node.url.replace(/\./g, '\\.')}/`));
    assert.is(run.code, 130, run.err);
  } finally {
    await node.close();
  }
});

test('difficulty 40 above the default bound: exit 1, the expected time and --max-difficulty in the advice, nothing submitted', async () => {
  const node = await nodeWith((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":"ok","settings":{"diff":40}}'));
  try {
    const run = await runTpkit(['register', '--key', keyFile, '--node', node.url]);
    assert.is(run.code, 1, run.err);
    assert.match(run.err, /40 bits, maxDifficulty 28: a median of 21\.2 h/);
    assert.match(run.err, /--max-difficulty/);
    assert.equal(node.requests, ['GET /api/settings/current/register']);
    const json = await runTpkit(['register', '--key', keyFile, '--node', node.url, '--json', '--max-difficulty', '39']);
    assert.is(JSON.parse(json.out).error.code, 'DIFFICULTY_TOO_HIGH');
  } finally {
    await node.close();
  }
});

test('--max-difficulty takes an integer 0..64', async () => {
  for (const bad of ['65', '2.5', 'x', '1e1']) {
    const run = await runTpkit(['register', '--key', keyFile, '--node', 'http://127.0.0.1:1', '--max-difficulty', bad]);
    assert.is(run.code, 2, `${bad}: ${run.err}`);
    assert.match(run.err, /--max-difficulty expected an integer 0\.\.64/);
  }
});

test.run();
