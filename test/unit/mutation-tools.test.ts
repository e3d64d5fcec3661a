// The mutation run's own parts: the fixed list still applies to today's code, a fresh draw is
// the same for the same seed and always applies, and the coverage map reads source maps and V8
// coverage as Node itself does (a wrong map would send a mutation to tests that never run it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/doc-pages.js';

interface Mutation {
  id: string;
  file: string | string[];
  find: string;
  replace: string;
  tests: string[];
}
interface Site {
  id: string;
  file: string;
  line: number;
  find: string;
  replace: string;
}
type Segment = [number, number, number, number];

const load = (script: string) => import(pathToFileURL(join(ROOT, 'scripts', script)).href);
const { MUTATIONS } = (await load('mutations.mjs')) as { MUTATIONS: Mutation[] };
const { EQUIVALENT } = (await load('equivalent-mutations.mjs')) as { EQUIVALENT: { file: string; original: string; mutated: string; why: string; context?: string }[] };
const { drawMutations } = (await load('mutation-operators.mjs')) as { drawMutations: (o: object) => { drawn: Site[] } };
const { decodeMappings, addExecutedLines } = (await load('coverage-lines.mjs')) as {
  decodeMappings: (mappings: string) => Segment[];
  addExecutedLines: (json: unknown, o: { root: string; into: Map<string, Set<number>> }) => Map<string, Set<number>>;
};

const occurrences = (text: string, find: string) => text.split(find).length - 1;

test('every fixed mutation applies exactly once, changes its file and names test files that exist', () => {
  const stale: string[] = [];
  for (const m of MUTATIONS) {
    const file = (Array.isArray(m.file) ? m.file : [m.file]).find((f) => existsSync(join(ROOT, f)));
    if (!file || occurrences(readFileSync(join(ROOT, file), 'utf8'), m.find) !== 1) stale.push(m.id);
    assert.is.not(m.find, m.replace, m.id);
    for (const t of m.tests) assert.ok(existsSync(join(ROOT, 'test', t.replace(/\.js$/, '.ts'))), `${m.id}: ${t}`);
  }
  assert.equal(stale, [], 'stale mutations: update scripts/mutations.mjs to the moved code');
});

test('every mutation listed as equivalent still matches a line of its file, and says why', () => {
  for (const e of EQUIVALENT) {
    const lines = readFileSync(join(ROOT, e.file), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    assert.ok(lines.includes(e.original), `${e.file}: "${e.original}" no longer occurs: drop or update the entry`);
    // A context names one occurrence: once in the file, and the line right after it.
    if (e.context) {
      const text = readFileSync(join(ROOT, e.file), 'utf8');
      assert.is(occurrences(text, e.context), 1, `${e.file}: the context of "${e.original}" occurs once`);
      assert.is(
        text
          .slice(text.indexOf(e.context) + e.context.length)
          .split('\n')[0]
          .trim(),
        e.original,
        `${e.file}: "${e.original}" follows its context`,
      );
    }
    assert.is.not(e.original, e.mutated);
    assert.ok(e.why.length > 20, `${e.file}: the reason`);
  }
});

test('a fresh draw is the same for the same seed, and each drawn mutation applies exactly once', () => {
  const draw = (seed: number) => drawMutations({ root: ROOT, folders: ['src/node', 'src/client'], changed: [], count: 40, seed }).drawn;
  const a = draw(42);
  assert.equal(
    a.map((m) => m.id),
    draw(42).map((m) => m.id),
  );
  assert.is.not(
    a.map((m) => m.id).join(),
    draw(43)
      .map((m) => m.id)
      .join(),
  );
  assert.is(a.length, 40);
  for (const m of a) {
    assert.is(occurrences(readFileSync(join(ROOT, m.file), 'utf8'), m.find), 1, m.id);
    assert.is.not(m.find, m.replace, m.id);
  }
});

test('a line before an else is changed but never removed: without it the else would not build', async () => {
  const { sitesOf } = await load('mutation-operators.mjs');
  const source = ['function f(a: number) {', '  if (a > 1) return 1;', '  else done(a);', '  if (a === 5) return 3;', '  done(a);', '  return 0;', '}', ''].join('\n');
  const on = (line: number) => (sitesOf('f.ts', source) as { line: number; family: string }[]).filter((s) => s.line === line).map((s) => s.family);
  assert.ok(on(2).includes('comparison'), 'the condition before the else is still mutated');
  assert.not.ok(on(2).includes('removed-check'), 'but the line is not removed');
  assert.ok(on(4).includes('removed-check'), 'a check with no else after it is removed');
  assert.ok(on(5).includes('removed-call'));
});

test('the bug shapes people write are drawn: listener left, offset, first-vs-last, buffer shared, overwrite', async () => {
  const { sitesOf } = await load('mutation-operators.mjs');
  const source = [
    'function f(signal: AbortSignal, raw: Uint8Array, list: number[], path: string) {',
    "  signal.addEventListener('abort', stop, { once: true });",
    '  const done = () => clearTimeout(timer);',
    '  const at = setMs - (this.now() - this.clockOffsetMs);',
    '  const hit = list.find((n) => n > 1);',
    '  for (const n of list) {',
    '    seen = n;',
    '  }',
    '  const copy = raw.slice();',
    '  const part = rawBytes.slice(1, 3);',
    "  const fd = openSync(path, 'wx', 0o600);",
    "  const s = 'wx';",
    '}',
    '',
  ].join('\n');
  const sites = sitesOf('f.ts', source) as { line: number; family: string; mutated: string }[];
  const on = (line: number, family: string) => sites.filter((s) => s.line === line && s.family === family).map((s) => s.mutated);
  assert.equal(on(2, 'listener-left'), ["signal.addEventListener('abort', stop, { });"]);
  assert.equal(on(3, 'listener-left'), ['const done = () => undefined;']);
  assert.equal(on(4, 'offset'), ['const at = setMs - (this.now());', 'const at = setMs - (this.now() + this.clockOffsetMs);']);
  assert.equal(on(5, 'first-vs-last'), ['const hit = list.findLast((n) => n > 1);']);
  assert.equal(on(7, 'first-vs-last'), ['seen ??= n;'], 'an assignment in a loop keeps the first');
  assert.equal(on(9, 'buffer-shared'), ['const copy = raw;']);
  assert.equal(on(10, 'buffer-shared'), ['const part = rawBytes.subarray(1, 3);']);
  assert.equal(on(11, 'overwrite'), ["const fd = openSync(path, 'w', 0o600);"]);
  assert.equal(on(12, 'overwrite'), ["const s = 'w';"], 'a lone flag string is the same bug');
});

test('source maps decode to the positions Node itself finds', () => {
  for (const script of ['dist/src/node/http/server.js', 'dist/src/index.js']) {
    const payload = JSON.parse(readFileSync(join(ROOT, `${script}.map`), 'utf8'));
    const map = new SourceMap(payload);
    const segments = decodeMappings(payload.mappings);
    assert.ok(segments.length > 500, script);
    for (const [line, column, source, sourceLine] of segments) {
      const entry = map.findEntry(line, column) as { originalSource: string; originalLine: number };
      assert.is(entry.originalLine, sourceLine, `${script} ${line}:${column}`);
      assert.ok(entry.originalSource.endsWith(payload.sources[source].replace(/^(\.\.\/)+/, '')), `${script} ${line}:${column}`);
    }
  }
});

test('coverage of a process that converts to hex marks that function executed and the base64 decoder not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-coverage-test-'));
  try {
    const code = `import('${pathToFileURL(join(ROOT, 'dist/src/bytes.js')).href}').then((b) => b.bytesToHex(new Uint8Array([1, 2])))`;
    execFileSync(process.execPath, ['-e', code], { env: { ...process.env, NODE_V8_COVERAGE: dir } });
    const into = new Map<string, Set<number>>();
    for (const name of readdirSync(dir)) addExecutedLines(JSON.parse(readFileSync(join(dir, name), 'utf8')), { root: ROOT, into });
    const lines = readFileSync(join(ROOT, 'src/bytes.ts'), 'utf8').split('\n');
    const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const executed = into.get('src/bytes.ts')!;
    assert.ok(executed, 'src/bytes.ts seen');
    assert.ok(executed.has(lineOf("let out = '';")), 'the short-hex loop of bytesToHex ran');
    assert.not.ok(executed.has(lineOf('return latin1.decode(out);')), 'the long-hex path did not');
    assert.not.ok(executed.has(lineOf('const code = text.charCodeAt(i);')), 'base64ToBytes did not run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a draw limited to some families takes only from those', () => {
  const shapes = ['listener-left', 'offset', 'first-vs-last', 'buffer-shared', 'overwrite'];
  const drawn = drawMutations({ root: ROOT, folders: ['src/node', 'src/client', 'src/cli'], changed: [], count: 30, seed: 7, families: shapes }).drawn as (Site & { family: string })[];
  assert.ok(drawn.length >= 10, `${drawn.length} drawn`);
  assert.equal(
    [...new Set(drawn.map((m) => m.family))].filter((f) => !shapes.includes(f)),
    [],
  );
  assert.ok(new Set(drawn.map((m) => m.family)).size >= 3, 'spread over the families');
});

test('mutate.mjs --help names every flag it reads, each with what it does', () => {
  const help = execFileSync(process.execPath, [join(ROOT, 'scripts/mutate.mjs'), '--help'], { cwd: ROOT, encoding: 'utf8' });
  const source = readFileSync(join(ROOT, 'scripts/mutate-options.mjs'), 'utf8');
  const table = /const FLAGS = \{([^]*?)\n\};/.exec(source)?.[1] ?? '';
  const flags = [...table.matchAll(/^\s*'?([a-z-]+)'?: \[/gm)].map((m) => m[1]);
  assert.ok(flags.length >= 14, `flags read from the source: ${flags.join(' ')}`);
  for (const flag of flags) assert.match(help, new RegExp(`^  --${flag}\\b.* {2,}\\S`, 'm'), `--${flag} is not in --help`);
  const unknown = (() => {
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts/mutate.mjs'), '--no-such-flag'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
      return undefined;
    } catch (err) {
      return err as { status: number; stderr: string };
    }
  })();
  assert.is(unknown?.status, 2, 'an unknown flag stops the run');
  assert.match(unknown?.stderr ?? '', /Unknown option '--no-such-flag'[^]*--help/);
});

test.run();
