#!/usr/bin/env node
// Runs every compiled test file with uvu, each in its own process under its own time limit, and
// ends with the line CI counts: "N passed, N failed". A crash before uvu's summary counts as a
// failure, and so does a file that exceeds its time limit (a hang fails the run, named, instead
// of stalling it) or whose process stays alive after its summary (a server, worker or timer
// left open).
//
//   node scripts/run-tests.mjs [REGEX] [--timeout SECONDS] [--jobs N] [--record]
//
// REGEX narrows the run to test files whose name matches it. Light files run several at a time
// (--jobs, TPKIT_TEST_JOBS; default 4); the heavy ones (HEAVY in test-plan.mjs, each with its
// reason) run alone afterwards. A file's limit comes from its measured time in
// scripts/test-times.json (test-plan.mjs: multiplier and floor); TPKIT_TEST_TIMEOUT_SCALE
// multiplies every limit, --timeout (or TPKIT_TEST_TIMEOUT_S) sets one limit for every file.
// --record writes this run's time of every passing file into scripts/test-times.json.
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runTestFile } from './test-file.mjs';
import { isHeavy, limitFor, readTimes, sourceName, writeTimes } from './test-plan.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { timeout: { type: 'string' }, jobs: { type: 'string' }, record: { type: 'boolean' } },
});
const fixedS = values.timeout ?? process.env.TPKIT_TEST_TIMEOUT_S;
const scale = Number(process.env.TPKIT_TEST_TIMEOUT_SCALE ?? 1);
const jobs = Number(values.jobs ?? process.env.TPKIT_TEST_JOBS ?? 4);
if (fixedS !== undefined && !(Number(fixedS) > 0)) {
  console.error(`run-tests: --timeout expected a number of seconds, got ${fixedS}`);
  process.exit(2);
}
if (!(scale > 0)) {
  console.error(`run-tests: TPKIT_TEST_TIMEOUT_SCALE expected a positive number, got ${process.env.TPKIT_TEST_TIMEOUT_SCALE}`);
  process.exit(2);
}
if (!(Number.isInteger(jobs) && jobs >= 1)) {
  console.error(`run-tests: --jobs expected a whole number of at least 1, got ${values.jobs ?? process.env.TPKIT_TEST_JOBS}`);
  process.exit(2);
}
const pattern = new RegExp(`(?:${positionals[0] ?? ''}).*\\.test\\.js$`);
// Test files live in folders by how they run (unit/, node/, process/, browser/, e2e/); the names
// are paths under dist/test, e.g. "unit/bytes.test.js".
const files = readdirSync(join(ROOT, 'dist', 'test'), { recursive: true })
  .map((name) => String(name).split(sep).join('/'))
  .filter((name) => pattern.test(name))
  .sort();

const times = readTimes();
/** Longest measured first, so the pool does not end waiting on one long file. */
const longestFirst = (a, b) => (times.files[b] ?? 0) - (times.files[a] ?? 0) || a.localeCompare(b);
const light = files.filter((f) => !isHeavy(f)).sort(longestFirst);
// Heavy files run one after another in name order, whatever their times: e2e/bundlers-build makes
// the builds the engines' files then reuse.
const heavy = files.filter((f) => isHeavy(f));

// uvu ends a failure's message with the assertion's name, "(ok)" for assert.ok: beside a
// failing figure that reads as a verdict, so it is printed as "(assert.ok failed)".
const nameAssertion = (text) => text.replace(/ {2}\(ok\)$/gm, '  (assert.ok failed)');

let passed = 0;
let failed = 0;
const failures = [];
/** @type {{ file: string, s: number, ok: boolean }[]} */
const took = [];
const loads = [];
const sampleLoad = () => loads.push(loadavg()[0]);
sampleLoad();
const loadTimer = setInterval(sampleLoad, 30_000);

async function runOne(file, alone) {
  const limit = limitFor(file, times, { fixedS: fixedS === undefined ? undefined : Number(fixedS), scale });
  // A file that runs alone streams its output; files that share the machine print theirs whole
  // when they end, so the lines of two files never interleave.
  const r = await runTestFile(file, { timeoutMs: limit.s * 1000, echo: alone ? (chunk) => process.stdout.write(nameAssertion(chunk)) : undefined });
  if (!alone) process.stdout.write(nameAssertion(r.output));
  const s = r.ms / 1000;
  passed += r.passed;
  failed += r.failed + r.skipped; // a skipped check is not a passed one
  const ok = !r.timedOut && !r.lingered && r.failed + r.skipped === 0;
  took.push({ file, s, ok });
  const name = sourceName(file);
  if (r.timedOut) {
    console.log(
      `\n${name} stopped at its time limit of ${limit.s} s (took ${s.toFixed(0)} s; ${limit.why}); ` +
        `raise it with --timeout SECONDS or TPKIT_TEST_TIMEOUT_SCALE=2 (docs/design/testing.md): it counts as a failure.`,
    );
    failures.push(`${name} (stopped at its time limit of ${limit.s} s)`);
  } else if (r.lingered) {
    console.log(`\n${name}: the test process did not exit 20 s after its summary: something was left open.`);
    failures.push(`${name} (left something open)`);
  } else if (r.failed + r.skipped > 0) {
    failures.push(`${name} (${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''})`);
  }
}

const began = performance.now();
// Light files: a pool of `jobs` at a time.
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, light.length) }, async () => {
    while (next < light.length) await runOne(light[next++], jobs === 1);
  }),
);
// Heavy files: one at a time, nothing beside them.
for (const file of heavy) await runOne(file, true);
clearInterval(loadTimer);
sampleLoad();

const seconds = (performance.now() - began) / 1000;
const meanLoad = loads.reduce((a, b) => a + b, 0) / loads.length;
const top = [...took].sort((a, b) => b.s - a.s).slice(0, 15);
console.log(`\nlongest files: ${top.map((t) => `${sourceName(t.file)} ${t.s.toFixed(0)} s${isHeavy(t.file) ? ' (alone)' : ''}`).join(', ')}`);
if (values.record) {
  writeTimes(
    times,
    took.filter((t) => t.ok),
    meanLoad,
  );
  console.log(`recorded ${took.filter((t) => t.ok).length} files' times in scripts/test-times.json`);
}
console.log(
  `\n${files.length} test files in ${seconds.toFixed(1)} s (${light.length} light, ${jobs} at a time; ${heavy.length} alone; ` +
    `load average ${meanLoad.toFixed(1)}, ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)})` +
    `${failures.length ? `; failing: ${failures.join(', ')}` : ''}`,
);
if (files.length === 0) {
  console.log(`no test file matches ${pattern}`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
