// `tpkit settings [PATH]`: the node's chain settings, or one subtree of them.

import { ArgumentError } from '../errors.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit settings [PATH] [options]

Prints the node's settings as JSON, or the part at PATH, e.g. current.register.diff or
current/fee/SK.

Options:
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'settings',
    async () => {
      const { values, positionals } = parseCommandArgs('settings', { args: argv, allowPositionals: true, options: NODE_OPTIONS });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (positionals.length > 1) throw new ArgumentError('Give at most one settings path, e.g. current.register.diff', { details: 'see `tpkit settings --help`' });
      const path = positionals[0] ?? '';
      const found = await clientFrom(values).getSettings(path, { signal: interruptSignal() });
      printJson(found);
      // The API answers an unknown path with an empty object; a typo should not look like a setting.
      const empty = typeof found === 'object' && found !== null && Object.keys(found).length === 0;
      if (path && empty) console.error(`note: the node has no settings at ${path} (tpkit settings lists them all)`);
      return 0;
    },
    argv,
  );
}
