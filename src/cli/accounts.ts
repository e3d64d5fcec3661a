// `tpkit accounts`: the development accounts of a local tpkit node, with their balances.

import { secretKeyToWif } from '../keys/wif.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit accounts [options]

Lists the prefunded development accounts of a local tpkit node: index, address, balances and
secret key. The keys are public (the same on every machine): never use them on a real chain.

Options:
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'accounts',
    async () => {
      const { values } = parseCommandArgs('accounts', { args: argv, allowPositionals: false, options: { ...NODE_OPTIONS } });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const accounts = await clientFrom(values).dev.accounts({ signal: interruptSignal() });
      if (values.json) {
        printJson(accounts.map((a) => ({ index: a.index, address: a.address, hex: a.hex, publicKey: a.publicKeyHex, secretKey: a.secretKeyHex, wif: secretKeyToWif(a.secretKey), amount: a.amount })));
        return 0;
      }
      if (accounts.length === 0) console.log('this node has no development accounts (tpkit node --accounts N makes them at genesis)');
      for (const a of accounts) {
        const balances =
          Object.entries(a.amount)
            .map(([cur, v]) => `${v} ${cur}`)
            .join(', ') || '0';
        console.log(`(${a.index}) ${a.address}  ${a.hex}  ${balances}`);
        console.log(`    secret key ${a.secretKeyHex}`);
        console.log(`    WIF        ${secretKeyToWif(a.secretKey)}`);
      }
      console.log('DEVELOPMENT KEYS: public, anyone can spend from them. Never use them on a real chain.');
      return 0;
    },
    argv,
  );
}
