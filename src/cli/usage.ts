// Usage errors in the project's words: what the user typed wrong, which flag, and the closest
// real name when it looks like a typo. node:util's parseArgs messages never reach the user.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../closest-name.js';
import { ArgumentError } from '../errors.js';

const quoted = (message: string) => /'([^']+)'/.exec(message)?.[1];

/**
 * parseArgs, with its errors turned into ArgumentErrors that name the flag and suggest one.
 * `signed` lists the flags that take negative numbers (written `--flag=-5`); any other flag
 * given one is told it takes none.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, config: T, signed: readonly string[] = []): ReturnType<typeof parseArgs<T>> {
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
      if (/ambiguous/.test(message) && next !== undefined && /^-\d/.test(next) && !signed.includes(flag)) {
        throw new ArgumentError(`${flag} takes no negative number, got '${next}'`, { details: help });
      }
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
