// Fresh mutations, drawn anew on each run: every line of the target sources is scanned for the
// places an operator family applies, and a seeded draw picks some, spread over the families.
// A fixed list becomes the list the suite was written against; a draw nobody chose is not.
//
// Families: comparison (a test turned the other way), boundary (< and <=), removed check (an
// `if (...) throw/return` line gone), removed call (a statement call gone), removed await,
// swapped arguments (two plain arguments exchanged), constant (a number literal moved by one),
// state not restored (a reset in `finally`/`catch` or a delete/clear gone), resource not
// released (a clearTimeout, close, removeEventListener, cancel... gone). The bug shapes people
// write and operators miss: listener left (a release inside an expression, or `once: true`,
// gone), offset (a term `+ x.offsetMs` dropped or its sign turned), first-vs-last (find and
// findLast, indexOf and lastIndexOf, `??=` and `=` in a loop swapped), buffer shared (a copy
// dropped: `.slice()`, `.slice(a, b)` made `.subarray(a, b)`, `Uint8Array.from(x)` made `x`),
// overwrite (the 'wx' flag of an open or write made 'w').
//
// Each site is found on a masked copy of the line (strings, templates and comments blanked),
// so operators never touch text. A mutation is { id, family, file, line, find, replace }, with
// `find` made unique in its file by taking in the lines before it when the line repeats.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const FAMILIES = [
  'comparison',
  'boundary',
  'removed-check',
  'removed-call',
  'removed-await',
  'swapped-args',
  'constant',
  'state-not-restored',
  'resource-not-released',
  'listener-left',
  'offset',
  'first-vs-last',
  'buffer-shared',
  'overwrite',
];

/** A seeded PRNG in [0, 1): the same seed draws the same mutations. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The line with string, template and regex-free comment text blanked to spaces (same length). */
export function maskLine(line, state = { inBlock: false }) {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (state.inBlock) {
      const end = line.indexOf('*/', i);
      if (end < 0) return out + ' '.repeat(line.length - i);
      out += ' '.repeat(end + 2 - i);
      i = end + 2;
      state.inBlock = false;
      continue;
    }
    const c = line[i];
    if (c === '/' && line[i + 1] === '/') return out + ' '.repeat(line.length - i);
    if (c === '/' && line[i + 1] === '*') {
      state.inBlock = true;
      out += '  ';
      i += 2;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      out += c + ' '.repeat(Math.max(0, Math.min(j, line.length) - i - 1)) + (j < line.length ? c : '');
      i = j + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

const skipLine = (masked) => {
  const t = masked.trim();
  return t === '' || /^(import|export\s+(type|interface|\*|\{[^}]*\}\s+from))\b/.test(t) || /^(type|interface|declare)\b/.test(t) || /^(readonly\s+)?[\w$#]+\??\s*:\s*[^=]+;$/.test(t);
};

/** Replacements at each occurrence of `re` in the masked line: one mutation per occurrence. */
function atMatches(line, masked, re, replaceWith) {
  const out = [];
  for (const m of masked.matchAll(re)) {
    const replacement = replaceWith(m[0]);
    if (replacement === undefined) continue;
    out.push(line.slice(0, m.index) + replacement + line.slice(m.index + m[0].length));
  }
  return out;
}

const COMPARISON = { ' === ': ' !== ', ' !== ': ' === ', ' == ': ' != ', ' != ': ' == ', ' < ': ' > ', ' > ': ' < ', ' <= ': ' >= ', ' >= ': ' <= ' };
const BOUNDARY = { ' < ': ' <= ', ' <= ': ' < ', ' > ': ' >= ', ' >= ': ' > ' };
const RELEASE =
  /\b(clearTimeout|clearInterval|removeEventListener|removeListener|removeAllListeners|closeSync|unlinkSync|rmSync|release|unref|unsubscribe)\(|\.(close|destroy|cancel|end|off|terminate|abort|releaseLock|delete)\(/;
const RESTORE = /^\s*(this\.)?[#\w$.[\]]+\s*(=\s*(undefined|null|false|0|''|\[\])|-=\s*[\w$.]+|--)\s*;\s*$|\.(delete|clear)\(/;

/** Every mutation of one line, by family (masked: the line with text blanked). */
function lineMutations(line, masked, context) {
  const found = [];
  const add = (family, replace) => {
    // A line gone before an `else` leaves the else without its if: the build fails, no test runs.
    if (context.beforeElse && replace.trim().startsWith('// (')) return;
    if (replace !== line) found.push({ family, replace });
  };
  // A whole statement: it starts where the line before ended one, with a name (not `});`), and ends here.
  const statement = context.afterStatement && /^\s*[\w$#].*;\s*$/.test(masked) && !/^\s*(return|throw|const|let|var)\b/.test(masked);
  for (const r of atMatches(line, masked, / (===|!==|==|!=|<=|>=|<|>) /g, (op) => COMPARISON[op])) add('comparison', r);
  for (const r of atMatches(line, masked, / (<=|>=|<|>) /g, (op) => BOUNDARY[op])) add('boundary', r);
  const indent = /^\s*/.exec(line)[0];
  if (/^\s*if\s*\(.*\)\s*(throw|return)\b.*;\s*$/.test(masked)) add('removed-check', `${indent}// (check removed)`);
  if (statement && /^\s*(await\s+)?[\w$#.?[\]]+\(.*\);\s*$/.test(masked) && !/^\s*super\(/.test(masked) && !RELEASE.test(masked)) add('removed-call', `${indent}// (call removed)`);
  // Only an await the statement starts with (or returns): elsewhere the value's type changes and
  // the mutation would not build, which says nothing about the tests.
  for (const r of atMatches(line, masked, /^\s*(return )?await /g, (m) => m.replace('await ', ''))) add('removed-await', r);
  for (const r of atMatches(line, masked, /\(([\w$.#]+), ([\w$.#]+)\)(?!\s*(=>|:))/g, (args) => {
    const [a, b] = args.slice(1, -1).split(', ');
    return a === b ? undefined : `(${b}, ${a})`;
  }))
    add('swapped-args', r);
  for (const r of atMatches(line, masked, /(?<![\w$.#])\d[\d_]*(?![\w.])/g, (n) => {
    const value = Number(n.replace(/_/g, ''));
    if (!Number.isSafeInteger(value)) return undefined;
    return String(value === 0 ? 1 : value + 1);
  }))
    add('constant', r);
  if ((context.inFinally || context.inCatch) && statement && !/^\s*(throw|return|if)\b/.test(masked)) add('state-not-restored', `${indent}// (restore removed)`);
  else if (RESTORE.test(masked) && statement) add('state-not-restored', `${indent}// (restore removed)`);
  if (statement && RELEASE.test(masked)) add('resource-not-released', `${indent}// (release removed)`);
  for (const r of shapeMutations(line, masked, statement, context)) add(r.family, r.replace);
  return found;
}

// A release call inside an expression (`() => clearTimeout(t)`, `finally { x.off(...) }` on one
// line): a whole-statement release is resource-not-released's.
const INLINE_RELEASE = /\b(clearTimeout|clearInterval)\([^()]*\)|[\w$#.]+\.(removeEventListener|removeListener|off)\([^()]*\)/g;
// A name that holds an offset: the clock's, a view's, a cursor's.
const OFFSET_TERM = / ([+-]) ([\w$#.]*(?:[oO]ffset|[sS]kew)[\w$]*)(?![\w$(])/g;
const FIRST_LAST = { '.find(': '.findLast(', '.findLast(': '.find(', '.findIndex(': '.findLastIndex(', '.findLastIndex(': '.findIndex(', '.indexOf(': '.lastIndexOf(', '.lastIndexOf(': '.indexOf(' };

/** The bug shapes beyond operators: listener left, offset, first-vs-last, buffer shared, overwrite. */
function shapeMutations(line, masked, statement, context) {
  const out = [];
  const push = (family, list) => {
    for (const replace of list) out.push({ family, replace });
  };
  if (!statement)
    push(
      'listener-left',
      atMatches(line, masked, INLINE_RELEASE, () => 'undefined'),
    );
  push(
    'listener-left',
    atMatches(line, masked, /,?\s*\bonce: true\b/g, () => ''),
  );
  push(
    'offset',
    atMatches(line, masked, OFFSET_TERM, () => ''),
  );
  push(
    'offset',
    atMatches(line, masked, OFFSET_TERM, (m) => m.replace(/^ ([+-])/, (_, op) => ` ${op === '+' ? '-' : '+'}`)),
  );
  push(
    'first-vs-last',
    atMatches(line, masked, /\.(findLastIndex|findIndex|findLast|find|lastIndexOf|indexOf)\(/g, (m) => FIRST_LAST[m]),
  );
  push(
    'first-vs-last',
    atMatches(line, masked, / \?\?= /g, () => ' = '),
  );
  // An assignment in a loop that keeps the last value: made to keep the first.
  if (context.inLoop && statement)
    push(
      'first-vs-last',
      atMatches(line, masked, /^(\s*[\w$#.]+(?:\[[\w$#.]+\])?) = (?!=)/g, (m) => m.replace(/ = $/, ' ??= ')),
    );
  push(
    'buffer-shared',
    atMatches(line, masked, /\.slice\(\)/g, () => ''),
  );
  // Only on names that hold bytes: a string or an array has no subarray, and would not build.
  push(
    'buffer-shared',
    atMatches(line, masked, /\b[\w$#]*(?:[bB]ytes|[bB]uf|[bB]uffer|[dD]ata|[rR]aw|[bB]ody|[pP]ayload|[cC]hunk|[sS]ig)\.slice\((?=[^()]+\))/g, (m) => m.replace('.slice(', '.subarray(')),
  );
  push(
    'buffer-shared',
    atMatches(line, masked, /\b(Uint8Array|Buffer)\.from\(([\w$#.]+)\)/g, (m) => m.slice(m.indexOf('(') + 1, -1)),
  );
  // The flag is text, blanked in the masked line: found in the line itself, where the mask keeps its quotes.
  for (const m of line.matchAll(/(['"])wx\1/g)) {
    if (masked[m.index] === m[1] && masked.slice(m.index + 1, m.index + 3) === '  ') out.push({ family: 'overwrite', replace: `${line.slice(0, m.index)}${m[1]}w${m[1]}${line.slice(m.index + 4)}` });
  }
  return out;
}

/** Every mutation site of a TypeScript source, with `find` unique in the file. */
export function sitesOf(file, text) {
  const lines = text.split('\n');
  const state = { inBlock: false };
  const sites = [];
  // Braces opened by `finally {` / `catch {` and the depth they close at.
  const blocks = [];
  let depth = 0;
  // The last line with code on it: a statement starts only after one that ended.
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const masked = maskLine(lines[i], state);
    let after = i + 1;
    while (after < lines.length && lines[after].trim() === '') after++;
    const context = {
      inFinally: blocks.some((b) => b.kind === 'finally'),
      inCatch: blocks.some((b) => b.kind === 'catch'),
      inLoop: blocks.some((b) => b.kind === 'loop'),
      afterStatement: /[;{}]\s*$|^\s*$/.test(previous),
      beforeElse: /^\s*else\b/.test(lines[after] ?? ''),
    };
    if (!skipLine(masked)) {
      for (const { family, replace } of lineMutations(lines[i], masked, context)) {
        // The smallest run of lines ending here that occurs once in the file.
        for (let from = i; from >= Math.max(0, i - 4); from--) {
          const find = lines.slice(from, i + 1).join('\n');
          if (text.indexOf(find) === text.lastIndexOf(find)) {
            sites.push({ family, file, line: i + 1, find, replace: [...lines.slice(from, i), replace].join('\n'), original: lines[i].trim(), mutated: replace.trim() });
            break;
          }
        }
      }
    }
    if (masked.trim() !== '') previous = masked;
    for (const ch of masked) {
      if (ch === '{') {
        depth++;
        const kind = /\bfinally\s*\{\s*$/.test(masked) ? 'finally' : /\bcatch\s*(\([^)]*\))?\s*\{\s*$/.test(masked) ? 'catch' : /^\s*(for|while)\b.*\{\s*$/.test(masked) ? 'loop' : 'other';
        if (kind !== 'other' && !blocks.some((b) => b.depth === depth)) blocks.push({ kind, depth });
      } else if (ch === '}') {
        while (blocks.length && blocks[blocks.length - 1].depth >= depth) blocks.pop();
        depth--;
      }
    }
  }
  return sites;
}

/** .ts files under `dir`, recursively, as repository paths. */
function tsFiles(root, dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return dir.endsWith('.ts') ? [dir] : [];
  return readdirSync(abs, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && statSync(join(root, path)).isFile());
}

/** Sources changed since `base` (its merge base with HEAD), committed or not. */
export function changedFiles(root, base) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  let mergeBase;
  try {
    mergeBase = git('merge-base', base, 'HEAD').trim();
  } catch {
    return [];
  }
  const names = git('diff', '--name-only', mergeBase, '--', 'src').split('\n').filter(Boolean);
  return names.filter((name) => name.endsWith('.ts') && existsSync(join(root, name)));
}

/**
 * Draws `count` mutations from the sources in `folders` and `changed`, spread evenly over the
 * families (a family with fewer sites gives its share to the others), each site at most once;
 * `families` limits the draw to those named.
 */
export function drawMutations({ root, folders, changed, count, seed, exclude = () => false, families: only = FAMILIES }) {
  const random = seededRandom(seed);
  const files = [...new Set([...changed, ...folders.flatMap((dir) => tsFiles(root, dir))])].filter((f) => !exclude(f)).sort();
  // Only the families asked for (a run aimed at the bug shapes, say) are drawn from.
  const byFamily = new Map(FAMILIES.filter((f) => only.includes(f)).map((f) => [f, []]));
  for (const file of files) for (const site of sitesOf(file, readFileSync(join(root, file), 'utf8'))) byFamily.get(site.family)?.push(site);
  // Changed files count twice: new code is where the untested bugs are.
  const changedSet = new Set(changed);
  const weight = (site) => (changedSet.has(site.file) ? 2 : 1);
  const sites = Object.fromEntries([...byFamily].map(([f, list]) => [f, list.length]));
  const drawn = [];
  const taken = new Set();
  const ids = new Map();
  const families = [...byFamily.keys()].filter((f) => byFamily.get(f).length > 0);
  for (let round = 0; drawn.length < count && families.some((f) => byFamily.get(f).length > 0); round++) {
    const family = families[round % families.length];
    const pool = byFamily.get(family);
    if (pool.length === 0) continue;
    // A file first, weighted, then a site in it: a file with many lines does not swamp the rest.
    const filesHere = [...new Set(pool.map((s) => s.file))];
    const total = filesHere.reduce((sum, f) => sum + weight({ file: f }), 0);
    let pick = random() * total;
    let file = filesHere[filesHere.length - 1];
    for (const f of filesHere) {
      pick -= weight({ file: f });
      if (pick < 0) {
        file = f;
        break;
      }
    }
    const inFile = pool.filter((s) => s.file === file);
    const site = inFile[Math.floor(random() * inFile.length)];
    pool.splice(pool.indexOf(site), 1);
    const key = `${site.file}:${site.line}`;
    if (taken.has(`${key}:${site.replace}`)) continue;
    taken.add(`${key}:${site.replace}`);
    const id = `fresh/${site.family}/${relative('src', site.file).replace(/\.ts$/, '')}:${site.line}`;
    const n = (ids.get(id) ?? 0) + 1;
    ids.set(id, n);
    drawn.push({ ...site, id: n === 1 ? id : `${id}#${n}` });
  }
  return { drawn, files, sites };
}
