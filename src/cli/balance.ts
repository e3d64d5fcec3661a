// `tpkit balance ADDR | --key FILE`: a wallet's balances, seq and last block.

import { ArgumentError } from '../errors.js';
import { noAddressAdvice } from './wallet-owner.js';
import { readKeyFileInfo } from './key-file.js';
import { warnIfElsewhere } from './key-file-origin.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit balance ADDRESS | --key FILE [options]

Shows a wallet's balance in every currency, its seq and the block that last changed it.

Options:
  --key FILE          take the address recorded in this key file (by tpkit register, or
                      tpkit keygen --address / --import-wallet)
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'balance',
    async () => {
      const { values, positionals } = parseCommandArgs('balance', { args: argv, allowPositionals: true, options: { ...NODE_OPTIONS, key: { type: 'string' } } });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const client = clientFrom(values);
      const signal = interruptSignal();
      let address: string | undefined = positionals[0];
      if (!address && values.key) {
        const keyFile = readKeyFileInfo(values.key);
        if (!keyFile.address) throw new ArgumentError(`${values.key} records no wallet address`, { details: noAddressAdvice(values.key).replace('pass --from ADDRESS', 'give the ADDRESS') });
        address = keyFile.address;
        await warnIfElsewhere(keyFile, client, signal);
      }
      if (!address) throw new ArgumentError('Give an address, or --key FILE with a registered wallet', { details: 'see `tpkit balance --help`' });
      const info = await client.getAddress(address, { signal });
      if (values.json) {
        printJson({ address: info.address, hex: info.hex, amount: info.amount, seq: info.seq, lastblk: info.lastblk });
        return 0;
      }
      console.log(`address  ${info.address} (${info.hex})`);
      const amounts = Object.entries(info.amount);
      if (amounts.length === 0) console.log('balance  0 (no currency yet)');
      for (const [currency, amount] of amounts) console.log(`balance  ${amount} ${currency}`);
      console.log(`seq      ${info.seq}`);
      console.log(`lastblk  ${info.lastblk}`);
      return 0;
    },
    argv,
  );
}
