// Every code block of README.md and docs/ marked to run (```ts run) runs as written, each in a
// fresh Node process against a node this test starts: its URL is given as TPKIT_NODE, which the
// examples read as the CLI does. No example is copied into a test by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { startNode, type RunningNode } from '../../src/node/index.js';
import { ROOT, runnableBlocks } from '../helpers/doc-pages.js';

// Inside the package's folder, so that `import … from 'tpkit'` resolves to this build by the
// package's own name and exports, as it does in a project that installed it.
const DIR = join(ROOT, 'dist', 'doc-examples');
const TIME_LIMIT_MS = 120_000;

let node: RunningNode;

test.before(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  node = await startNode();
});

test.after(async () => {
  await node?.close();
});

function run(file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: DIR, env: { ...process.env, TPKIT_NODE: node.url } });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIME_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const blocks = runnableBlocks();

test('the README and the guides hold runnable examples', () => {
  assert.ok(
    blocks.some((b) => b.page === 'README.md'),
    'README.md has blocks marked ```ts run',
  );
  assert.ok(blocks.length >= 15, `${blocks.length} runnable blocks`);
});

for (const block of blocks) {
  test(`${block.page}:${block.line} runs as written`, async () => {
    const { code } = await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' });
    const file = join(DIR, `${block.page.replace(/[/.]/g, '_')}-${block.line}.mjs`);
    writeFileSync(file, code);
    const result = await run(file);
    assert.is(result.code, 0, `${block.page}:${block.line} exited ${result.code}:\n${result.out}`);
  });
}

test.run();
