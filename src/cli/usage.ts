// Usage errors in the project's words: what the user typed wrong, which flag, and the closest
// real name when it looks like a typo. node:util's parseArgs messages never reach the user.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ArgumentError } from '../errors.js';

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known name closest to `typed`, when it is close enough to be a typo. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = name.startsWith(typed) && typed.length >= 2 ? 0.5 : editDistance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance <= Math.max(1, Math.floor(typed.length / 3)) ? best : undefined;
}

const quoted = (message: string) => /'([^']+)'/.exec(message)?.[1];

/** parseArgs, with its errors turned into ArgumentErrors that name the flag and suggest one. */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw err;
    const message = (err as Error).message;
    const help = `see \`tpkit ${command} --help\``;
    const options = Object.keys(config.options ?? {}).map((o) => `--${o}`);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = (quoted(message) ?? '').replace(/=.*$/, '');
      const guess = flag.startsWith('--') ? closest(flag, options) : undefined;
      throw new ArgumentError(`unknown option '${flag}'`, { details: guess ? `did you mean ${guess}? ${help}` : help });
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const flag = /'(--?[\w-]+)/.exec(message)?.[1] ?? 'an option';
      if (/does not take an argument/.test(message)) throw new ArgumentError(`${flag} takes no value`, { details: help });
      // parseArgs will not take a value that starts with '-' after a space (it could be a flag).
      const args = config.args ?? [];
      const next = args[args.indexOf(flag) + 1];
      if (/ambiguous/.test(message) && next !== undefined) {
        throw new ArgumentError(`${flag} needs a value, and '${next}' looks like an option`, { details: `write ${flag}=${next} if it is the value; ${help}` });
      }
      throw new ArgumentError(`${flag} needs a value`, { details: help });
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new ArgumentError(`unexpected argument '${quoted(message) ?? ''}'`, { details: help });
    }
    throw new ArgumentError('the options could not be read', { details: help });
  }
}
