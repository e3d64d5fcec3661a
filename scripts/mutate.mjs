#!/usr/bin/env node
// npm run mutate: checks that the suite catches real bugs. Each mutation in mutations.mjs is a
// bug that could really happen, with the test files that must catch it. One at a time, it is
// applied to the source, what it touches is rebuilt (TypeScript always, the WASM kernels for
// assembly/, the browser bundle when a browser test is named), the named files run under a
// per-file time limit, and the source is restored. A mutation is killed by a failure, killed by
// the time limit (a hang: counted apart, since a hang is a weaker catch), or it survives.
// A mutation whose text no longer occurs exactly once in its file is "stale": listed and counted
// apart, never run, so the list can be brought up to date after the code moves. Every test file
// that killed a mutation runs once more on the restored source at the end: a kill by a file that
// fails without the mutation too is not counted.
//
// On top of the fixed list, each run draws fresh mutations (mutation-operators.mjs) from
// operator families over the files changed since --base and the risky folders, reproducible by
// --seed. A fresh mutation runs the test files that execute its line, by the coverage map
// (coverage-map.mjs, .mutate-coverage.json): those the fixed list names for its file first,
// then the fastest, within a budget of test time; a line no test executes is a survivor ("no
// coverage") without a run. Without a map, or for a file edited since the map was made, the
// tests are guessed from imports and names. The report gives the kill rate per family and per
// folder, and lists every survivor.
//
// Flags: node scripts/mutate.mjs --help (mutate-options.mjs).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mutateOptions } from './mutate-options.mjs';
import { MUTATIONS } from './mutations.mjs';
import { EQUIVALENT } from './equivalent-mutations.mjs';
import { FAMILIES, changedFiles, drawMutations } from './mutation-operators.mjs';
import { ROOT, runTestFile } from './test-file.mjs';
import { coveredTestsFor, loadCoverage, testSources, testsFor } from './mutation-tests.mjs';

const options = mutateOptions(process.argv.slice(2));
const { values, freshCount, seed, timeBoxMs, timeoutMs, only, families } = options;

// The file being mutated and its original text, on disk, so that a run killed midway is undone
// by the next one before anything else.
const JOURNAL = join(ROOT, '.mutate-journal.json');
const SURVIVORS = join(ROOT, '.mutate-survivors.json');

function restoreFromJournal() {
  if (!existsSync(JOURNAL)) return false;
  const { file, original } = JSON.parse(readFileSync(JOURNAL, 'utf8'));
  writeFileSync(join(ROOT, file), original);
  rmSync(JOURNAL);
  console.log(`restored ${file}, left mutated by an interrupted run`);
  return true;
}

const npmRun = (script) => execFileSync('npm', ['run', '--silent', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const BUILD = {
  wasm: () => execFileSync(process.execPath, ['scripts/build-wasm.mjs'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' }),
  // build:ts empties dist/src; the one-file entries (the package root, tpkit/mine) come back with build:mine.
  ts: () => npmRun('build:ts') + npmRun('build:mine'),
  browser: () => npmRun('build:browser'),
};

/** What a mutation of `file` needs rebuilt before `tests` can see it. */
function buildsFor(file, tests) {
  const steps = [];
  if (file.startsWith('assembly/')) steps.push('wasm');
  steps.push('ts');
  // Browser and end-to-end pages load dist/browser.
  if (tests.some((t) => t.startsWith('browser/') || t.startsWith('e2e/'))) steps.push('browser');
  return steps;
}

function build(steps) {
  for (const step of steps) {
    try {
      BUILD[step]();
    } catch (err) {
      return `${step}: ${
        String(err.stdout ?? '')
          .trim()
          .split('\n')
          .slice(-3)
          .join(' | ') || err.message
      }`;
    }
  }
  return undefined;
}

/** A mutation's file: the first of its candidates that exists (code may move between files). */
function fileOf(m) {
  const files = Array.isArray(m.file) ? m.file : [m.file];
  return files.find((f) => existsSync(join(ROOT, f))) ?? files[0];
}

function occurrences(text, find) {
  let n = 0;
  for (let i = text.indexOf(find); i >= 0; i = text.indexOf(find, i + 1)) n++;
  return n;
}

const fixedSelected = values['no-fixed'] ? [] : MUTATIONS.filter((m) => !only || only.test(m.id)).map((m) => ({ ...m, family: 'fixed' }));
let fresh = [];
const coverage = freshCount > 0 || values.replay ? loadCoverage() : undefined;
if (values.replay) {
  // Each mutation's line is where its text now ends; text no longer found once is stale below.
  const replayed = JSON.parse(readFileSync(values.replay, 'utf8'));
  const sources = testSources();
  fresh = replayed.map((m) => {
    const path = join(ROOT, m.file);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const at = text.indexOf(m.find);
    const line = at < 0 ? m.line : text.slice(0, at + m.find.length).split('\n').length;
    const moved = { ...m, line };
    const covered = coveredTestsFor(moved, coverage);
    return { ...moved, tests: covered ? covered.tests : testsFor(moved, sources), ...(covered ? { covering: covered.covering } : {}) };
  });
  console.log(`replay: ${fresh.length} mutations from ${values.replay}`);
}
if (freshCount > 0) {
  const base = values.base ?? 'main';
  const folders = (values.folders ?? 'src/client,src/node').split(',').filter(Boolean);
  const changed = changedFiles(ROOT, base);
  // Generated sources and the browser entry points are not where a bug is written by hand.
  const exclude = (f) => /\/(generated|constants)\b|\.generated\./.test(f);
  const draw = drawMutations({ root: ROOT, folders, changed, count: freshCount, seed, exclude, families });
  const sources = testSources();
  if (coverage)
    console.log(
      `coverage map of ${coverage.madeAt}: ${coverage.tests.length} test files; ${coverage.whole ? 'every source matches it' : `${coverage.stale.length} sources edited since (tests guessed for those): ${coverage.stale.slice(0, 8).join(', ')}${coverage.stale.length > 8 ? ', ...' : ''}`}`,
    );
  else console.log('no coverage map (node scripts/coverage-map.mjs makes one): tests are guessed from imports and names');
  fresh = [
    ...fresh,
    ...draw.drawn.map((m) => {
      const why = `${m.original}  ->  ${m.mutated}`;
      const covered = coveredTestsFor(m, coverage, options.testBudgetMs);
      if (covered) return { ...m, tests: covered.tests, covering: covered.covering, why };
      return { ...m, tests: testsFor(m, sources, options.maxTests), why };
    }),
  ];
  for (const m of fresh) if (m.tests.length === 0) console.log(`no test   ${m.id}: ${m.covering === 0 ? 'no test file executes this line' : `no test file names or imports ${m.file}`}`);
  console.log(`fresh: seed ${seed}, ${fresh.length} drawn from ${draw.files.length} files (${changed.length} changed since ${base}: ${changed.join(', ') || 'none'}); folders ${folders.join(', ')}`);
  console.log(
    `fresh: sites per family: ${Object.entries(draw.sites)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ')}`,
  );
}
const selected = [...fixedSelected, ...fresh];
const ids = new Set();
for (const m of [...MUTATIONS, ...fresh]) {
  if (ids.has(m.id)) throw new Error(`mutation id ${m.id} appears twice`);
  ids.add(m.id);
  for (const t of m.tests) if (!/\.test\.js$/.test(t)) throw new Error(`${m.id}: test "${t}" is not a compiled test file name`);
  // Names are paths under test/ (unit/bytes.test.js): a moved or renamed test file fails here, not silently later.
  for (const t of m.tests) if (!existsSync(join(ROOT, 'test', t.replace(/\.js$/, '.ts')))) throw new Error(`${m.id}: test "${t}" has no file test/${t.replace(/\.js$/, '.ts')}`);
}

restoreFromJournal();

// Stale: the file is gone, or the text is not there exactly once.
const stale = [];
const runnable = [];
for (const m of selected) {
  const file = fileOf(m);
  const path = join(ROOT, file);
  const count = existsSync(path) ? occurrences(readFileSync(path, 'utf8'), m.find) : -1;
  if (count === 1) runnable.push({ ...m, file });
  else stale.push({ ...m, file, why: count < 0 ? 'file not found' : count === 0 ? 'text not found' : `text found ${count} times` });
}
for (const m of stale) console.log(`stale     ${m.id}  ${m.file}: ${m.why}`);
if (values.check) {
  console.log(`${selected.length} mutations: ${runnable.length} apply, ${stale.length} stale`);
  process.exit(stale.length ? 1 : 0);
}

let current; // { file, original } while a mutation is applied
const restore = () => {
  if (!current) return;
  writeFileSync(join(ROOT, current.file), current.original);
  rmSync(JOURNAL, { force: true });
  current = undefined;
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    restore();
    console.log(`\n${signal}: source restored; run "npm run build" before testing`);
    process.exit(130);
  });
}

const began = performance.now();
{
  const buildError = build(['ts']);
  if (buildError) throw new Error(`the unmutated source does not build: ${buildError}`);
}

const results = [];
const ORDER = ['wasm', 'ts', 'browser'];
let dirty = new Set();
for (const [i, m] of runnable.entries()) {
  if (performance.now() - began > timeBoxMs) {
    results.push({ ...m, outcome: 'time-box', detail: 'not started: the time box ran out' });
    continue;
  }
  const equivalent = m.family !== 'fixed' && EQUIVALENT.find((e) => e.file === m.file && e.original === m.original && e.mutated === m.mutated && (!e.context || m.find.includes(e.context)));
  if (equivalent) {
    results.push({ ...m, outcome: 'equivalent', detail: equivalent.why });
    console.log(`${String(i + 1).padStart(3)}/${runnable.length} equivalent ${m.id}  (${equivalent.why})`);
    continue;
  }
  if (m.tests.length === 0) {
    results.push({ ...m, outcome: 'survived', detail: 'no test executes this line' });
    console.log(`${String(i + 1).padStart(3)}/${runnable.length} SURVIVED ${m.id}  (no coverage: no test executes this line)`);
    continue;
  }
  const path = join(ROOT, m.file);
  const original = readFileSync(path, 'utf8');
  writeFileSync(JOURNAL, JSON.stringify({ file: m.file, original }));
  current = { file: m.file, original };
  writeFileSync(
    path,
    original.replace(m.find, () => m.replace),
  );
  // What this mutation needs rebuilt, and what an earlier one left built from mutated source.
  const needed = buildsFor(m.file, m.tests);
  const steps = ORDER.filter((step) => needed.includes(step) || dirty.has(step));
  dirty = new Set(needed.filter((step) => step !== 'ts'));
  const t0 = performance.now();
  const buildError = build(steps);
  let outcome;
  let killer;
  const detail = [];
  if (buildError) {
    outcome = 'no-build';
    detail.push(buildError);
  } else {
    outcome = 'survived';
    for (const file of m.tests) {
      const r = await runTestFile(file, { timeoutMs });
      if (r.timedOut) {
        outcome = 'timeout';
        killer = file;
        detail.push(`${file} over ${timeoutMs / 1000} s`);
        break;
      }
      if (r.failed > 0 || r.skipped > 0) {
        outcome = 'killed';
        killer = file;
        const name = /FAIL\s+"([^"]*)"/.exec(r.output)?.[1];
        detail.push(`${file}: ${r.failed} failed${name ? ` ("${name.slice(0, 70)}")` : r.lingered ? ' (left something open)' : ''}`);
        break;
      }
    }
  }
  restore();
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  results.push({ ...m, outcome, killer, detail: detail.join('; ') });
  const label = { killed: 'killed', timeout: 'TIMEOUT', survived: 'SURVIVED', 'no-build': 'NO-BUILD' }[outcome];
  console.log(`${String(i + 1).padStart(3)}/${runnable.length} ${label.padEnd(8)} ${m.id}  (${seconds} s)${detail.length ? `  ${detail.join('; ')}` : ''}`);
}

// Leave dist built from the restored source.
const finalBuild = build(ORDER.filter((step) => step === 'ts' || dirty.has(step)));
if (finalBuild) console.log(`rebuilding the restored source failed: ${finalBuild}`);

// A kill means something only if the file passes without the mutation: each file that killed
// runs once more on the restored source, and a kill by a file that fails there is not counted.
{
  const t0 = performance.now();
  const killers = [...new Set(results.map((r) => r.killer).filter(Boolean))].sort();
  const failing = new Set();
  if (!finalBuild) {
    for (const file of killers) {
      const r = await runTestFile(file, { timeoutMs });
      if (r.failed > 0 || r.skipped > 0 || r.timedOut) failing.add(file);
    }
  }
  for (const r of results) {
    if (!r.killer || !(finalBuild || failing.has(r.killer))) continue;
    r.outcome = 'baseline';
    r.detail = `${r.killer} fails without the mutation too`;
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(`\nbaseline: ${killers.length} test files that killed, run on the restored source in ${seconds} s${failing.size ? `; failing there too: ${[...failing].join(', ')}` : ', all pass'}`);
}

// The fresh survivors, for --replay once tests are written for them.
writeFileSync(
  SURVIVORS,
  JSON.stringify(
    results
      .filter((r) => r.outcome === 'survived' && r.family !== 'fixed')
      .map(({ id, family, file, line, find, replace, original, mutated, why }) => ({ id, family, file, line, find, replace, original, mutated, why })),
    null,
    1,
  ),
);

const count = (o) => results.filter((r) => r.outcome === o).length;
const killed = count('killed');
const timeouts = count('timeout');
const survivors = results.filter((r) => r.outcome === 'survived');
const noBuild = results.filter((r) => r.outcome === 'no-build');
const scored = killed + timeouts + survivors.length;
const pct = (n) => (scored ? ((100 * n) / scored).toFixed(1) : '0.0');
console.log('');
if (survivors.length) {
  console.log('Survivors (a bug no named test catches):');
  for (const s of survivors) {
    const ran = s.tests.length ? `[${s.tests.join(', ')}${s.covering > s.tests.length ? ` of ${s.covering} that execute the line` : ''}]` : '[no test executes the line]';
    console.log(`  ${s.id}  ${s.file}${s.line ? `:${s.line}` : ''}: ${s.why}  ${ran}`);
  }
}
if (noBuild.length) {
  console.log('Did not build (fix the mutation):');
  for (const s of noBuild) console.log(`  ${s.id}  ${s.detail}`);
}
const equivalents = results.filter((r) => r.outcome === 'equivalent');
if (equivalents.length) {
  console.log('Equivalent (shown to change nothing observable; scripts/equivalent-mutations.mjs):');
  for (const e of equivalents) console.log(`  ${e.id}  ${e.file}:${e.line}: ${e.why}`);
}
const notRun = results.filter((r) => r.outcome === 'baseline');
if (notRun.length) {
  console.log('Not counted (the test file that killed it fails without the mutation too):');
  for (const s of notRun) console.log(`  ${s.id}  ${s.detail}`);
}
if (stale.length) {
  console.log('Stale (the code moved; update the list):');
  for (const s of stale) console.log(`  ${s.id}  ${s.file}: ${s.why}`);
}
const boxed = results.filter((r) => r.outcome === 'time-box');
if (boxed.length) console.log(`Not run (time box of ${timeBoxMs / 60000} min): ${boxed.length} mutations`);

// Kill rates per family and per folder, over the mutations that ran and built.
const rate = (list) => {
  const scoredHere = list.filter((r) => ['killed', 'timeout', 'survived'].includes(r.outcome));
  const killedHere = scoredHere.filter((r) => r.outcome !== 'survived').length;
  return scoredHere.length ? `${killedHere}/${scoredHere.length} (${((100 * killedHere) / scoredHere.length).toFixed(0)} %)` : '-';
};
const table = (title, keyOf, keys) => {
  console.log(`\nKill rate per ${title}:`);
  for (const key of keys) {
    const here = results.filter((r) => keyOf(r) === key);
    if (here.length)
      console.log(
        `  ${key.padEnd(24)} ${rate(here).padEnd(14)} ${here.filter((r) => r.outcome === 'no-build').length ? `(${here.filter((r) => r.outcome === 'no-build').length} did not build)` : ''}`,
      );
  }
};
table('family', (r) => r.family, ['fixed', ...FAMILIES]);
table('folder', (r) => dirname(r.file), [...new Set(results.map((r) => dirname(r.file)))].sort());
const freshResults = results.filter((r) => r.family !== 'fixed');
if (freshResults.length)
  console.log(`\nfresh mutations (${[values.replay && `replayed from ${values.replay}`, freshCount > 0 && `seed ${seed}`].filter(Boolean).join(', ')}): ${rate(freshResults)} killed`);

const minutes = ((performance.now() - began) / 60000).toFixed(1);
console.log(
  `\n${selected.length} mutations in ${minutes} min: ${killed} killed by a failure, ${timeouts} killed by the time limit, ` +
    `${survivors.length} survived, ${equivalents.length} equivalent, ${stale.length} stale, ${noBuild.length} did not build` +
    (notRun.length ? `, ${notRun.length} not counted (failing baseline)` : ''),
);
console.log(`score ${pct(killed + timeouts)} % killed (${pct(killed)} % by a failure)`);
process.exit(survivors.length || stale.length || noBuild.length || notRun.length ? 1 : 0);
