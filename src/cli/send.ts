// `tpkit send`: a transfer from the key file's wallet, with the node's seq and fee, waited
// for with a spinner unless --no-wait.

import { transfer } from '../client/index.js';
import { ArgumentError } from '../errors.js';
import { addressArgument } from './input.js';
import { openKeyFile, readKeyFileInfo } from './key-file.js';
import { warnIfElsewhere } from './key-file-origin.js';
import { blockMaking, checkBeforeSigning, checkFeeCovered } from './send-checks.js';
import { noAddressAdvice } from './wallet-owner.js';
import { Progress } from './progress.js';
import {
  DEFAULT_NODE,
  TX_NODE_HELP,
  TX_NODE_OPTIONS,
  PASSPHRASE_HELP,
  PASSPHRASE_OPTION,
  clientFrom,
  interruptSignal,
  keepSpinning,
  parseAmount,
  holdForPrompt,
  passphraseFrom,
  printJson,
  runWalletCommand,
} from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit send --key FILE --to ADDRESS --amount N --currency CUR [options]

Sends N (whole smallest units) of CUR from the key file's wallet, pays the node's fee,
and waits for the block. Exit code 1 when the node refuses it or it fails in the block.

Options:
  --key FILE          key file of the sending wallet
  --from ADDRESS      sending wallet (default: the address recorded in the key file)
  --to ADDRESS        receiving wallet
  --amount N          amount, a whole number
  --currency CUR      currency, e.g. SK
  --fee auto|N        fee paid (default auto: the node's fee for this transaction)
  --fee-currency CUR  currency the fee is paid in (default: CUR when the node has a rate)
  --message TEXT      message carried in the transaction
  --seq N             seq to use (default: the node's seq + 1)
  --create            send to an address that has no wallet yet (it creates one)
  --no-wait           print the txid without waiting for the block
${PASSPHRASE_HELP}
${TX_NODE_HELP}

Before signing it checks that the sending wallet exists and has this key, holds the
currency, the amount and the fee, and that the recipient exists (unless --create).`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'send',
    async () => {
      const { values } = parseCommandArgs('send', {
        args: argv,
        options: {
          ...TX_NODE_OPTIONS,
          ...PASSPHRASE_OPTION,
          key: { type: 'string' },
          from: { type: 'string' },
          to: { type: 'string' },
          amount: { type: 'string' },
          currency: { type: 'string' },
          fee: { type: 'string', default: 'auto' },
          'fee-currency': { type: 'string' },
          message: { type: 'string' },
          seq: { type: 'string' },
          'no-wait': { type: 'boolean' },
          create: { type: 'boolean' },
        },
      });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (!values.key) throw new ArgumentError('--key is required: the key file of the sending wallet');
      if (!values.to) throw new ArgumentError('--to is required: the receiving address');
      if (!values.currency) throw new ArgumentError('--currency is required, e.g. --currency SK');
      const amount = parseAmount(values.amount, '--amount');
      const fee = values.fee === 'auto' ? 'auto' : parseAmount(values.fee, '--fee', { allowZero: true });
      const seq = values.seq === undefined ? undefined : parseAmount(values.seq, '--seq');
      // Typos in addresses are caught before the passphrase is asked for; messages use text form.
      const to = addressArgument(values.to, '--to');
      const given = values.from === undefined ? undefined : addressArgument(values.from, '--from');
      // Everything the node can check is checked before the passphrase: scrypt takes seconds,
      // and a node that is down or a wallet that cannot pay makes them wasted.
      const info = readKeyFileInfo(values.key);
      holdForPrompt(values, !info.plain);
      const from = given ?? info.address;
      if (!from) throw new ArgumentError(`${values.key} records no wallet address`, { details: noAddressAdvice(values.key) });
      if (from === to) {
        console.error(`warning: --to ${to} is the sending wallet itself: the amount comes back to it, and the fee is spent`);
      }
      const client = clientFrom(values);
      client.checkTransport();
      const signal = interruptSignal();
      if (given === undefined) await warnIfElsewhere(info, client, signal);
      const spinner = new Progress({ label: 'send' });
      let stop = keepSpinning(spinner, 'checking');
      try {
        const sender = await checkBeforeSigning({
          client,
          from,
          to,
          currency: values.currency,
          amount,
          publicKey: info.publicKey,
          keyPath: values.key,
          fromGiven: given !== undefined,
          create: values.create === true,
          signal,
        });
        const blocks = await blockMaking(client, signal);
        stop();
        spinner.clear();
        const { secretKey } = await openKeyFile(values.key, passphraseFrom(values));
        if (blocks === 'on-demand' && !values['no-wait']) {
          console.error(
            `note: this node makes blocks only on demand: run \`tpkit dev mine${client.baseUrl === `${DEFAULT_NODE}/` ? '' : ` --node ${client.baseUrl.replace(/\/+$/, '')}`}\` to include the transfer (or send with --no-wait)`,
          );
        }
        stop = keepSpinning(spinner, 'signing');
        const sent = await transfer({
          client,
          secretKey,
          from,
          to,
          currency: values.currency,
          amount,
          fee,
          feeCurrency: values['fee-currency'],
          message: values.message,
          seq,
          wait: !values['no-wait'],
          signal,
          beforeSigning: (plan) => checkFeeCovered({ from, currency: values.currency!, amount }, sender, plan),
          onStage: (stage) => spinner.status(stage === 'waiting' ? 'waiting for a block' : stage),
        });
        spinner.clear();
        const block = sent.status?.ok ? sent.status.block : undefined;
        if (values.json) {
          printJson({ txid: sent.txid, state: sent.status ? 'included' : 'submitted', seq: sent.seq, fee: sent.fee, feeCurrency: sent.feeCurrency, block });
        } else {
          console.log(`txid     ${sent.txid}`);
          console.log(`seq      ${sent.seq}`);
          console.log(`fee      ${sent.fee}${sent.feeCurrency ? ` ${sent.feeCurrency}` : ''}`);
          console.log(sent.status ? `block    ${block ?? '?'} (included)` : `status   submitted; see \`tpkit status ${sent.txid}\``);
        }
        return 0;
      } finally {
        stop();
        spinner.clear();
      }
    },
    argv,
  );
}
