// The flags of scripts/mutate.mjs, each with what it does: --help prints this table, and the
// parsed values are checked here so a typo stops the run before anything is built.

import { parseArgs } from 'node:util';
import { FAMILIES } from './mutation-operators.mjs';

/** name -> [type, argument, what it does]; the table --help prints. */
const FLAGS = {
  only: ['string', 'REGEX', 'run only the fixed mutations whose id matches'],
  check: ['boolean', '', 'only report stale mutations (text no longer found once): no build, no test'],
  timeout: ['string', 'SECONDS', "a test file's time limit (default 240: four times the longest named file at load 10 on 2 cores)"],
  fresh: ['string', 'N', 'also draw N fresh mutations from the operator families (default 0)'],
  seed: ['string', 'S', 'the seed of the fresh draw (default random, printed so a run can be repeated)'],
  base: ['string', 'REF', 'fresh mutations favour the files changed since this git ref (default main)'],
  folders: ['string', 'A,B', 'the risky folders fresh mutations are drawn from too (default src/client,src/node)'],
  families: ['string', 'A,B', `draw fresh mutations only from these families (default all: ${FAMILIES.join(', ')})`],
  'no-fixed': ['boolean', '', 'leave the fixed list out'],
  'time-box': ['string', 'MINUTES', 'start no mutation after this long; those left are listed as not run'],
  'max-tests': ['string', 'N', 'test files a fresh mutation runs when they are guessed, not mapped (default 4)'],
  'test-budget': ['string', 'SECONDS', "test time, by the coverage map's times, a covered fresh mutation may spend (default 300)"],
  replay: ['string', 'FILE', 'run the fresh mutations of a .mutate-survivors.json again, found by their text'],
  help: ['boolean', '', 'print this help and exit'],
};

export function helpText() {
  const rows = Object.entries(FLAGS).map(([name, [, arg, what]]) => `  --${name}${arg ? ` ${arg}` : ''}`.padEnd(26) + what);
  return ['node scripts/mutate.mjs [flags]: checks that the suite catches real bugs (docs/design/testing.md)', '', ...rows].join('\n');
}

/** The parsed flags, numbers checked; prints the help and exits on --help. */
export function mutateOptions(args) {
  let values;
  try {
    ({ values } = parseArgs({ args, options: Object.fromEntries(Object.entries(FLAGS).map(([name, [type]]) => [name, { type }])) }));
  } catch (err) {
    console.error(`mutate: ${err.message}\n\n${helpText()}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(helpText());
    process.exit(0);
  }
  const freshCount = Number(values.fresh ?? 0);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const timeBoxMs = values['time-box'] === undefined ? Infinity : Number(values['time-box']) * 60_000;
  const maxTests = Number(values['max-tests'] ?? 4);
  const testBudgetMs = Number(values['test-budget'] ?? 300) * 1000;
  for (const [name, v] of [
    ['--fresh', freshCount],
    ['--seed', seed],
    ['--time-box', timeBoxMs],
    ['--max-tests', maxTests],
    ['--test-budget', testBudgetMs],
  ]) {
    if (!(v >= 0)) throw new Error(`${name} expected a number >= 0`);
  }
  const timeoutMs = Number(values.timeout ?? 240) * 1000;
  if (!(timeoutMs > 0)) throw new Error(`--timeout expected seconds, got ${values.timeout}`);
  const only = values.only ? new RegExp(values.only) : undefined;
  const families = values.families === undefined ? FAMILIES : values.families.split(',').filter(Boolean);
  for (const f of families) if (!FAMILIES.includes(f)) throw new Error(`--families: no family "${f}" (families: ${FAMILIES.join(', ')})`);
  return { values, freshCount, seed, timeBoxMs, maxTests, testBudgetMs, timeoutMs, only, families };
}
