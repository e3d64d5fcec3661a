// `tpkit settings [PATH]`: the node's chain settings, or one subtree of them.

import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit settings [PATH] [options]

Prints the node's settings as JSON, or the part at PATH, e.g. current.register.diff or
current/fee/SK.

Options:
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand('settings', async () => {
    const { values, positionals } = parseCommandArgs('settings', { args: argv, allowPositionals: true, options: NODE_OPTIONS });
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    printJson(await clientFrom(values).getSettings(positionals[0] ?? '', { signal: interruptSignal() }));
    return 0;
  }, argv);
}
