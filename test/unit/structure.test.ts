// The source's shape: no module imports itself through others (type-only imports count, since
// a reader follows them the same way), and dependencies point one way, as
// docs/design/architecture.md says: cli -> client/node -> pow/crypto/keys/codec -> wasm, and
// inside src/node/ from dev/ down to base/. Read from the TypeScript and page
// sources, so a cycle fails here before any bundler meets it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ext) : ext.test(name) ? [path] : [];
  });
}

/** Static imports and re-exports (type-only included) of one file, as repository paths. */
export function importsOf(path: string, source: string): string[] {
  const found: string[] = [];
  const re = /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) {
    const spec = (m[1] ?? m[2]).replace(/\.js$/, path.endsWith('.ts') ? '.ts' : '.js');
    found.push(relative(ROOT, resolve(dirname(path), spec)));
  }
  return found;
}

function graphOf(paths: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of paths) graph.set(relative(ROOT, path), importsOf(path, readFileSync(path, 'utf8')));
  return graph;
}

/** Every cycle, each once, as a path that starts and ends at the same file. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const key = [...cycle.slice(0, -1)].sort().join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (!state.has(next) && graph.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

const src = graphOf(files(join(ROOT, 'src'), /\.ts$/));

test('the checker finds a cycle and passes a chain (it can fail)', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.equal(cyclesOf(graph), [['a', 'b', 'c', 'a']]);
  assert.equal(
    cyclesOf(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
  assert.equal(importsOf(join(ROOT, 'src/x/y.ts'), "import type { A } from './a.js';\nexport { b } from '../b.js';"), ['src/x/a.ts', 'src/b.ts']);
});

test('src/ has no import cycles', () => {
  assert.ok(src.size > 100, `read ${src.size} files`);
  assert.equal(
    cyclesOf(src).map((c) => c.join(' -> ')),
    [],
  );
});

test('web/ (the playground page) has no import cycles', () => {
  const web = graphOf(files(join(ROOT, 'web'), /\.js$/));
  assert.ok(web.has('web/app.js'));
  assert.equal(
    cyclesOf(web).map((c) => c.join(' -> ')),
    [],
  );
});

/** Folders of src/ and the folders each must not import from. */
const FORBIDDEN: Record<string, string[]> = {
  wasm: ['codec', 'crypto', 'keys', 'pow', 'client', 'node', 'cli'],
  codec: ['crypto', 'keys', 'pow', 'client', 'node', 'cli'],
  crypto: ['keys', 'pow', 'client', 'node', 'cli'],
  keys: ['pow', 'client', 'node', 'cli'],
  pow: ['client', 'node', 'cli'],
  client: ['node', 'cli'],
  node: ['client', 'cli'],
};

test('dependencies point one way: cli -> client/node -> pow/crypto/codec -> wasm', () => {
  const wrong: string[] = [];
  for (const [file, imports] of src) {
    const folder = file.split('/')[1];
    for (const target of imports) {
      if (FORBIDDEN[folder]?.includes(target.split('/')[1])) wrong.push(`${file} imports ${target}`);
    }
  }
  assert.equal(wrong, []);
});

/**
 * Folders of src/node/ and the node folders each may import, lowest first: base and store
 * stand on nothing of the node; http on base; config on http's host and origin checks; the EVM
 * on the store's keys; the ledger on config, store and the EVM, never on http or the API; the API on the ledger; the dev API on
 * everything below it. index.ts and node.ts at the top assemble them all.
 */
const NODE_LAYERS: Record<string, string[]> = {
  base: [],
  store: [],
  http: ['base'],
  config: ['base', 'http'],
  // The EVM over a ledger interface: it knows the store's keys, nothing of the ledger itself.
  evm: ['base', 'store'],
  ledger: ['base', 'config', 'store', 'evm'],
  api: ['base', 'config', 'http', 'ledger', 'store', 'evm'],
  dev: ['base', 'config', 'http', 'ledger', 'store', 'api', 'evm'],
};

/** Imports between node folders that the layers forbid, and files in folders without a rule. */
export function layerViolations(graph: Map<string, string[]>, layers: Record<string, string[]>): string[] {
  const folderOf = (path: string) => {
    const parts = path.split('/');
    return parts[0] === 'src' && parts[1] === 'node' && parts.length > 3 ? parts[2] : undefined;
  };
  const wrong: string[] = [];
  for (const [file, imports] of graph) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const allowed = layers[from];
    if (!allowed) {
      wrong.push(`${file} is in src/node/${from}/, which has no rule in NODE_LAYERS`);
      continue;
    }
    for (const target of imports) {
      const to = folderOf(target);
      if (target.startsWith('src/node/') && to === undefined) wrong.push(`${file} imports ${target} (the node's top, which only assembles)`);
      else if (to !== undefined && to !== from && !allowed.includes(to)) wrong.push(`${file} imports ${target}`);
    }
  }
  return wrong;
}

test('the layer checker finds a wrong import and an unruled folder (it can fail)', () => {
  const layers = { ledger: ['store'], store: [] };
  const graph = new Map([
    ['src/node/ledger/a.ts', ['src/node/store/b.ts', 'src/node/http/c.ts', 'src/bytes.ts']],
    ['src/node/store/b.ts', ['src/node/ledger/a.ts', 'src/node/index.ts']],
    ['src/node/web/d.ts', []],
    ['src/node/index.ts', ['src/node/ledger/a.ts']],
  ]);
  assert.equal(layerViolations(graph, layers), [
    'src/node/ledger/a.ts imports src/node/http/c.ts',
    'src/node/store/b.ts imports src/node/ledger/a.ts',
    "src/node/store/b.ts imports src/node/index.ts (the node's top, which only assembles)",
    'src/node/web/d.ts is in src/node/web/, which has no rule in NODE_LAYERS',
  ]);
  assert.equal(layerViolations(new Map([['src/node/ledger/a.ts', ['src/node/store/b.ts']]]), layers), []);
});

test('src/node/ folders depend one way: dev -> api -> ledger -> evm/config/store -> http -> base', () => {
  const nodeFiles = [...src.keys()].filter((f) => f.startsWith('src/node/'));
  assert.ok(nodeFiles.length > 40, `read ${nodeFiles.length} node files`);
  assert.ok(!nodeFiles.some((f) => /^src\/node\/[^/]+\.ts$/.test(f) && !['src/node/index.ts', 'src/node/node.ts'].includes(f)), 'only index.ts and node.ts sit at the top of src/node/');
  assert.equal(layerViolations(src, NODE_LAYERS), []);
});

test.run();
