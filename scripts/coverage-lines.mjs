// The source lines a process executed, from V8's block coverage (the JSON files NODE_V8_COVERAGE
// writes) mapped back through the source maps that tsc and esbuild write beside dist/.
// A line counts as executed when one of its mapped positions lies in a covered range: the
// innermost range around the position has a count above zero.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The segments of a source map's `mappings`: [generatedLine, generatedColumn, sourceIndex, sourceLine] (0-based). */
export function decodeMappings(mappings) {
  const out = [];
  // Columns and names are delta-coded too, but only the source and its line are needed here.
  let sourceIndex = 0;
  let sourceLine = 0;
  const lines = mappings.split(';');
  for (let line = 0; line < lines.length; line++) {
    let column = 0;
    for (const segment of lines[line].split(',')) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const c of segment) {
        const digit = DIGIT.get(c);
        if (digit === undefined) throw new Error(`source map: bad character ${c}`);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length < 4) continue;
      sourceIndex += fields[1];
      sourceLine += fields[2];
      out.push([line, column, sourceIndex, sourceLine]);
    }
  }
  return out;
}

/** Offsets at which each line of `text` starts. */
function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The count of the innermost range around `offset` (ranges sorted by length, shortest first). */
function countAt(ranges, offset) {
  for (const r of ranges) if (r.startOffset <= offset && offset < r.endOffset) return r.count;
  return 0;
}

// A script's text, line starts and decoded map, read once per run.
const scripts = new Map();
function scriptOf(path, root) {
  if (scripts.has(path)) return scripts.get(path);
  let script;
  if (existsSync(`${path}.map`)) {
    const text = readFileSync(path, 'utf8');
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8'));
    const sources = map.sources.map((s) =>
      relative(root, join(dirname(path), map.sourceRoot ?? '', s))
        .split(sep)
        .join('/'),
    );
    script = { starts: lineStarts(text), mappings: decodeMappings(map.mappings), sources };
  }
  scripts.set(path, script);
  return script;
}

/**
 * Adds the executed lines of the sources under `srcPrefix` to `into` (source path -> Set of
 * 1-based lines), from one coverage JSON file of a process.
 */
export function addExecutedLines(coverageJson, { root, distPrefix = 'dist/', srcPrefix = 'src/', into }) {
  for (const result of coverageJson.result ?? []) {
    if (!result.url.startsWith('file://')) continue;
    const path = fileURLToPath(result.url);
    const rel = relative(root, path).split(sep).join('/');
    if (!rel.startsWith(distPrefix)) continue;
    const script = scriptOf(path, root);
    if (!script) continue;
    const ranges = result.functions.flatMap((f) => f.ranges).sort((a, b) => a.endOffset - a.startOffset - (b.endOffset - b.startOffset));
    for (const [genLine, genColumn, sourceIndex, sourceLine] of script.mappings) {
      const source = script.sources[sourceIndex];
      if (!source?.startsWith(srcPrefix)) continue;
      const offset = (script.starts[genLine] ?? Infinity) + genColumn;
      if (countAt(ranges, offset) <= 0) continue;
      let lines = into.get(source);
      if (!lines) into.set(source, (lines = new Set()));
      lines.add(sourceLine + 1);
    }
  }
  return into;
}
