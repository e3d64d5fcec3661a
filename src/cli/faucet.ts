// `tpkit faucet ADDRESS AMOUNT [--currency CUR]`: development money from a local tpkit node.

import { ArgumentError } from '../errors.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, parseAmount, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit faucet ADDRESS AMOUNT [--currency CUR] [options]

Credits AMOUNT (a whole number of the smallest unit) of CUR (default SK) to ADDRESS on a
local tpkit node, in a block made at once, and prints the new balance. Only a node with its
development API on (the default of \`tpkit node\`) has a faucet; the wallet need not exist.

Options:
  --currency CUR      currency to credit (default SK)
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'faucet',
    async () => {
      const { values, positionals } = parseCommandArgs('faucet', { args: argv, allowPositionals: true, options: { ...NODE_OPTIONS, currency: { type: 'string' } } });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const [address, amountText, ...extra] = positionals;
      if (!address || !amountText || extra.length > 0)
        throw new ArgumentError('Give an address and an amount', { details: 'e.g. `tpkit faucet AA100000001677721810 1000000`; see `tpkit faucet --help`' });
      const amount = parseAmount(amountText, 'AMOUNT');
      const currency = values.currency ?? 'SK';
      const client = clientFrom(values);
      const signal = interruptSignal();
      const block = await client.dev.faucet(address, amount, { currency, signal });
      const info = await client.getAddress(address, { signal });
      if (values.json) {
        printJson({ address: info.address, currency, amount, block: block.hash, height: block.height, balance: info.amount[currency] ?? 0n });
      } else {
        console.log(`credited ${amount} ${currency} to ${info.address} in block ${block.height} (${block.hash})`);
        console.log(`balance  ${info.amount[currency] ?? 0n} ${currency}`);
      }
      return 0;
    },
    argv,
  );
}
