#!/usr/bin/env node
// Which test files execute which lines of src/: each compiled test file runs once under V8's
// block coverage (NODE_V8_COVERAGE reaches the nodes and CLIs a test spawns and their worker
// threads), and what ran is mapped back to src/ lines (coverage-lines.mjs). The mutation run
// reads the map to give a mutation the test files that execute its line, fastest first, and
// counts a mutation no test executes as a survivor ("no coverage") without running anything.
// Code that runs only inside a browser page is not seen here; those tests are chosen by name.
//
//   node scripts/coverage-map.mjs [REGEX] [--timeout SECONDS] [--update]
//
// Writes .mutate-coverage.json: each test file's result and time, each source file's hash (a
// file edited since is not trusted), and per source line the test files that execute it.
// --update keeps the map and runs only the test files that match REGEX and are new, edited
// since it was made (by the compiled file's hash) or failed in it: tests added after a full run
// join the map in seconds. A source edited since has its lines dropped and every test that ran
// it run again (for a file most tests run, nearly a full map); then its new hash is kept.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { addExecutedLines } from './coverage-lines.mjs';
import { ROOT, runTestFile } from './test-file.mjs';

export const COVERAGE_FILE = join(ROOT, '.mutate-coverage.json');

/** sha256 of a source file's text: the map holds for a file whose hash still matches. */
export const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The hash of every source under src/, by its repository path. */
function sourceHashes() {
  const out = {};
  for (const name of readdirSync(join(ROOT, 'src'), { recursive: true }).map((n) => String(n).split(sep).join('/'))) {
    if (name.endsWith('.ts')) out[`src/${name}`] = hashOf(readFileSync(join(ROOT, 'src', name), 'utf8'));
  }
  return out;
}

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { timeout: { type: 'string' }, update: { type: 'boolean' } } });
  const timeoutMs = Number(values.timeout ?? 300) * 1000;
  const pattern = new RegExp(`(?:${positionals[0] ?? ''}).*\\.test\\.js$`);
  const testHash = (test) => hashOf(readFileSync(join(ROOT, 'dist', 'test', test), 'utf8'));
  const previous = values.update && existsSync(COVERAGE_FILE) ? JSON.parse(readFileSync(COVERAGE_FILE, 'utf8')) : undefined;
  if (values.update && !previous) throw new Error(`--update: no map at ${COVERAGE_FILE}; run a full map first`);
  const matching = readdirSync(join(ROOT, 'dist', 'test'), { recursive: true })
    .map((name) => String(name).split(sep).join('/'))
    .filter((name) => pattern.test(name))
    .sort();
  const tests = previous ? [...previous.tests] : matching;
  const results = previous ? { ...previous.results } : {};
  const testHashes = previous ? { ...(previous.testHashes ?? {}) } : {};
  const lines = previous ? previous.lines : {}; // source -> line -> [test index]
  const current = sourceHashes();
  const hashes = previous?.hashes ?? current;
  // A map made before test hashes were kept: the tests it holds are taken as they are.
  // A test that failed in the map runs again: its lines are those of a failing run.
  const known = (test) => results[test]?.passed !== false && (previous.testHashes ? testHashes[test] === testHash(test) : tests.includes(test));
  // A source edited since the map: its lines moved, so every test that ran it runs again.
  const edited = previous ? Object.keys(hashes).filter((source) => current[source] !== undefined && hashes[source] !== current[source]) : [];
  const ranEdited = new Set(edited.flatMap((source) => Object.values(lines[source] ?? {}).flat()).map((i) => tests[i]));
  const toRun = previous ? matching.filter((test) => !known(test) || ranEdited.has(test)) : matching;
  if (edited.length > 0) console.log(`sources edited since the map: ${edited.join(', ')}; ${ranEdited.size} test files ran them and run again`);
  for (const source of edited) delete lines[source];
  // An edited source is trusted again once its tests ran; a new one is run by new tests or by
  // the edited files that import it.
  for (const source of edited) hashes[source] = current[source];
  for (const [source, hash] of Object.entries(current)) hashes[source] ??= hash;
  if (previous) {
    // A test run again loses its old lines first; a test file gone from dist/ is dropped.
    const again = new Set(toRun.map((test) => tests.indexOf(test)).filter((i) => i >= 0));
    for (const [i, test] of tests.entries()) if (!existsSync(join(ROOT, 'dist', 'test', test))) again.add(i);
    for (const bySource of Object.values(lines)) {
      for (const [line, list] of Object.entries(bySource)) bySource[line] = list.filter((i) => !again.has(i));
    }
    for (const test of toRun) if (!tests.includes(test)) tests.push(test);
  }
  const began = performance.now();
  const startedAt = new Date().toISOString();
  for (const [n, test] of toRun.entries()) {
    const index = tests.indexOf(test);
    const dir = mkdtempSync(join(tmpdir(), 'tpkit-coverage-'));
    const r = await runTestFile(test, { timeoutMs, env: { NODE_V8_COVERAGE: dir } });
    const executed = new Map();
    for (const name of readdirSync(dir)) {
      try {
        addExecutedLines(JSON.parse(readFileSync(join(dir, name), 'utf8')), { root: ROOT, into: executed });
      } catch {
        // A process killed while writing leaves a partial file: its lines are not counted.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    let count = 0;
    for (const [source, set] of executed) {
      const bySource = (lines[source] ??= {});
      for (const line of set) (bySource[line] ??= []).push(index);
      count += set.size;
    }
    results[test] = { passed: r.failed === 0 && r.skipped === 0 && !r.timedOut, ms: Math.round(r.ms) };
    testHashes[test] = testHash(test);
    console.log(`${String(n + 1).padStart(3)}/${toRun.length} ${test}: ${results[test].passed ? 'pass' : 'FAIL'}, ${(r.ms / 1000).toFixed(1)} s, ${count} source lines executed`);
  }
  const madeAt = previous?.madeAt ?? startedAt; // when the sources were hashed
  writeFileSync(COVERAGE_FILE, JSON.stringify({ madeAt, updatedAt: new Date().toISOString(), tests, results, testHashes, hashes, lines }));
  console.log(`coverage of ${toRun.length} test files in ${((performance.now() - began) / 60000).toFixed(1)} min -> ${COVERAGE_FILE}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
