// Which test files a fresh mutation runs: by the coverage map (coverage-map.mjs) those that
// execute its line, within a budget of test time; without a map, or for a file edited since,
// those the fixed list names for its file, then the tests that import or name it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { MUTATIONS } from './mutations.mjs';
import { ROOT } from './test-file.mjs';
import { COVERAGE_FILE, hashOf } from './coverage-map.mjs';

/** Test source files (every .ts under test/) and the compiled name of each test file among them. */
export function testSources() {
  return readdirSync(join(ROOT, 'test'), { recursive: true })
    .map((name) => String(name).split(sep).join('/'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, text: readFileSync(join(ROOT, 'test', name), 'utf8'), compiled: name.endsWith('.test.ts') ? name.replace(/\.ts$/, '.js') : undefined }));
}

/**
 * The test files a fresh mutation runs, at most `maxTests`: those the fixed list names for its
 * file; then the tests that import the module (or its folder's index) or name it, ranked by
 * how often they name the identifiers of the mutated line (a test of maxFee says "maxFee");
 * then the fixed list's for its folder.
 */
export function testsFor(m, sources, maxTests) {
  const { file } = m;
  const fixed = (pred) => MUTATIONS.filter((x) => (Array.isArray(x.file) ? x.file : [x.file]).some(pred)).flatMap((x) => x.tests);
  const module = file.replace(/\.ts$/, '.js');
  const index = `${dirname(file)}/index.js`;
  const base = basename(file, '.ts');
  const words = [...new Set((m.original.match(/[A-Za-z_$][\w$]{4,}/g) ?? []).filter((w) => !/^(const|await|return|throw|typeof|undefined|string|number|boolean|options|value|length)$/.test(w)))];
  const count = (text, word) => Math.min(20, text.split(word).length - 1);
  const related = sources
    .filter((t) => t.compiled && (t.text.includes(`${module}'`) || t.text.includes(`${index}'`) || (base.length >= 4 && t.text.includes(base))))
    .map((t) => ({ name: t.compiled, score: words.reduce((sum, w) => sum + count(t.text, w), 0) + (t.text.includes(`${module}'`) ? 5 : 0) }))
    .sort((a, b) => b.score - a.score)
    .map((t) => t.name);
  const folder = dirname(file);
  const ordered = [...fixed((f) => f === file), ...related, ...fixed((f) => dirname(f) === folder)];
  return [...new Set(ordered)].slice(0, maxTests);
}

/** The coverage map, if one was made, with which source files still match it. */
export function loadCoverage() {
  if (!existsSync(COVERAGE_FILE)) return undefined;
  const map = JSON.parse(readFileSync(COVERAGE_FILE, 'utf8'));
  const matches = (file) => existsSync(join(ROOT, file)) && map.hashes[file] === hashOf(readFileSync(join(ROOT, file), 'utf8'));
  const stale = Object.keys(map.hashes).filter((f) => !matches(f));
  return { ...map, matches, whole: stale.length === 0, stale };
}

/**
 * The test files that execute a mutation's line, by the coverage map: the fixed list's for its
 * file first, then the fastest, until the budget of test time is spent. Browser tests the fixed
 * list names are kept (the map does not see code run in a page). Undefined when the map does
 * not hold for the file.
 */
export function coveredTestsFor(m, coverage, testBudgetMs) {
  if (!coverage?.matches(m.file)) return undefined;
  const covering = new Set((coverage.lines[m.file]?.[m.line] ?? []).map((i) => coverage.tests[i]).filter((t) => coverage.results[t]?.passed));
  const named = MUTATIONS.filter((x) => (Array.isArray(x.file) ? x.file : [x.file]).includes(m.file)).flatMap((x) => x.tests);
  const first = [...new Set(named.filter((t) => covering.has(t) || t.startsWith('browser/')))];
  const rest = [...covering].filter((t) => !first.includes(t)).sort((a, b) => coverage.results[a].ms - coverage.results[b].ms);
  const chosen = [];
  let spent = 0;
  for (const t of [...first, ...rest]) {
    if (chosen.length > 0 && spent + (coverage.results[t]?.ms ?? 0) > testBudgetMs) break;
    chosen.push(t);
    spent += coverage.results[t]?.ms ?? 0;
  }
  return { tests: chosen, covering: covering.size };
}
