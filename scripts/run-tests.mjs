#!/usr/bin/env node
// Runs every compiled test file with uvu, each in its own process under a time limit, and ends
// with the line CI counts: "N passed, N failed". A crash before uvu's summary counts as a
// failure, and so does a file that exceeds its time limit (a hang fails the run, named, instead
// of stalling it) or whose process stays alive after its summary (a server, worker or timer
// left open).
//
//   node scripts/run-tests.mjs [REGEX] [--timeout SECONDS]
//
// REGEX narrows the run to test files whose name matches it. The limit (default 300 s a file,
// or TPKIT_TEST_TIMEOUT_S) is far above any file's time on a loaded 2-core machine.
// Files run one after another: several test files start nodes, worker pools and Chromium that
// use every core, and running two at once would only make each wait for the other.
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runTestFile } from './test-file.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { timeout: { type: 'string' } } });
const timeoutS = Number(values.timeout ?? process.env.TPKIT_TEST_TIMEOUT_S ?? 300);
if (!(timeoutS > 0)) {
  console.error(`run-tests: --timeout expected a number of seconds, got ${values.timeout}`);
  process.exit(2);
}
const pattern = new RegExp(`(?:${positionals[0] ?? ''}).*\\.test\\.js$`);
// Test files live in folders by how they run (unit/, node/, process/, browser/, e2e/); the names
// are paths under dist/test, e.g. "unit/bytes.test.js".
const files = readdirSync(join(ROOT, 'dist', 'test'), { recursive: true })
  .map((name) => String(name).split(sep).join('/'))
  .filter((name) => pattern.test(name))
  .sort();

// uvu ends a failure's message with the assertion's name, "(ok)" for assert.ok: beside a
// failing figure that reads as a verdict, so it is printed as "(assert.ok failed)".
const nameAssertion = (text) => text.replace(/ {2}\(ok\)$/gm, '  (assert.ok failed)');

let passed = 0;
let failed = 0;
const failures = [];
const began = performance.now();
for (const file of files) {
  const r = await runTestFile(file, { timeoutMs: timeoutS * 1000, echo: (chunk) => process.stdout.write(nameAssertion(chunk)) });
  passed += r.passed;
  failed += r.failed + r.skipped; // a skipped check is not a passed one
  if (r.timedOut) {
    console.log(`\n${file} exceeded its time limit of ${timeoutS} s and was stopped: it counts as a failure.`);
    failures.push(`${file} (time limit of ${timeoutS} s exceeded)`);
  } else if (r.lingered) {
    console.log(`\n${file}: the test process did not exit 20 s after its summary: something was left open.`);
    failures.push(`${file} (left something open)`);
  } else if (r.failed + r.skipped > 0) {
    failures.push(`${file} (${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''})`);
  }
}
const seconds = ((performance.now() - began) / 1000).toFixed(1);
console.log(`\n${files.length} test files in ${seconds} s${failures.length ? `; failing: ${failures.join(', ')}` : ''}`);
if (files.length === 0) {
  console.log(`no test file matches ${pattern}`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
