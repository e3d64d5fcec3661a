// How the suite is scheduled: which test files run alone (and why), and each file's time limit
// from its measured time in scripts/test-times.json. Read by run-tests.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './test-file.mjs';

export const TIMES_FILE = join(ROOT, 'scripts', 'test-times.json');
/** A file's limit is its measured time times this: the table is measured at load ~10, CI may run at 30. */
export const MULTIPLIER = 5;
/** No limit below this: a light file's start-up alone can take seconds under load. */
export const FLOOR_S = 120;
/** A file not in the table (a new one) gets this until its time is recorded. */
export const DEFAULT_S = 600;

/**
 * Files that run alone, after the light ones run several at a time. Each row says why: either
 * the file uses every core itself (beside it a light file would only wait, and its own waits
 * would stretch), or it writes to a place other files read (the shared examples project, the
 * generated docs), so running it alone also stands in for a lock.
 */
export const HEAVY = [
  [/^browser\//, 'Chromium and its renderer use both cores; docs-site also rewrites docs/reference (gen-docs) and builds the site'],
  [/^e2e\//, 'npm pack, npm install and the bundlers in the one examples project kept across runs (helpers/examples.ts): one writer at a time'],
  [/^process\/docs-generated\./, 'reads docs/reference, which browser/docs-site regenerates'],
  [/^unit\/miner\./, 'worker pools on every core; its abort and search checks ran slow beside other files'],
  [/^unit\/(search-calling-thread|search-figures|node-verify-threads)\./, 'a thread pool sized to the cores'],
  [/^process\/(miner-|bench-cli\.)/, 'the CLI miner and benchmark on every core'],
];

export const isHeavy = (file) => HEAVY.some(([re]) => re.test(file));

/** "unit/bytes.test.js" -> "test/unit/bytes.test.ts", the name a reader edits. */
export const sourceName = (file) => `test/${file.replace(/\.js$/, '.ts')}`;

/** @returns {{ measuredOn: string, load: number | null, files: Record<string, number> }} */
export function readTimes() {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return { measuredOn: 'never', load: null, files: {} };
    throw new Error(`scripts/test-times.json is not valid JSON: ${err.message}`, { cause: err });
  }
}

/**
 * A file's limit in seconds, and where it comes from (for the message when a file hits it).
 * @param {{ fixedS?: number, scale: number }} options fixedS: one limit for every file (--timeout)
 */
export function limitFor(file, times, { fixedS, scale }) {
  const measuredS = times.files[file];
  const scaled = scale === 1 ? '' : `, times TPKIT_TEST_TIMEOUT_SCALE=${scale}`;
  if (fixedS !== undefined) return { s: Math.round(fixedS * scale), why: `the limit set by --timeout or TPKIT_TEST_TIMEOUT_S${scaled}` };
  if (measuredS === undefined) return { s: Math.round(DEFAULT_S * scale), why: `not in scripts/test-times.json: the default ${DEFAULT_S} s${scaled}` };
  const base = Math.max(FLOOR_S, measuredS * MULTIPLIER);
  return { s: Math.round(base * scale), why: `measured ${measuredS} s on ${times.measuredOn}, limit ${MULTIPLIER}x, at least ${FLOOR_S} s${scaled}` };
}

/** Writes the times of a run's passing files (whole seconds, rounded up) over the table's. */
export function writeTimes(times, took, load) {
  const files = { ...times.files };
  for (const { file, s } of took) files[file] = Math.ceil(s);
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
  const table = { measuredOn: new Date().toISOString().slice(0, 10), load: Number(load.toFixed(1)), files: sorted };
  writeFileSync(TIMES_FILE, JSON.stringify(table, null, 2) + '\n');
}
