// `tpkit status TXID [--wait]`: whether a transaction is pending, included or failed.

import { UnknownTxError } from '../client/client-errors.js';
import type { TpkitClient } from '../client/client.js';
import type { TxStatus } from '../client/responses.js';
import { ArgumentError } from '../errors.js';
import { Progress } from './progress.js';
import { EXIT, NODE_HELP, NODE_OPTIONS, clientFrom, reportUnknownTx, interruptSignal, keepSpinning, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit status TXID [--wait] [options]

Prints "pending" until the transaction is in a block, then "included" with its block (and
the new address for a registration), or "failed" with the reason; "unknown transaction"
when the node never accepted that id. Exit code 1 when failed or unknown.

Options:
  --wait              wait (up to 60 s) until the transaction is in a block
${NODE_HELP}`;

async function fetchStatus(client: TpkitClient, txid: string, wait: boolean, signal: AbortSignal): Promise<TxStatus | null> {
  if (!wait) return client.getTxStatus(txid, { signal });
  const spinner = new Progress({ label: 'status' });
  const stop = keepSpinning(spinner, `waiting for ${txid} to be in a block`);
  try {
    return await client.waitForTx(txid, { signal });
  } finally {
    stop();
    spinner.clear();
  }
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'status',
    async () => {
      const { values, positionals } = parseCommandArgs('status', { args: argv, allowPositionals: true, options: { ...NODE_OPTIONS, wait: { type: 'boolean' } } });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const txid = positionals[0];
      if (!txid) throw new ArgumentError('Give a transaction id', { details: 'see `tpkit status --help`' });
      const client = clientFrom(values);
      const signal = interruptSignal();
      let status;
      try {
        status = await fetchStatus(client, txid, values.wait === true, signal);
      } catch (err) {
        if (!(err instanceof UnknownTxError)) throw err;
        return reportUnknownTx(txid, values.json === true);
      }
      const state = status === null ? 'pending' : status.ok ? 'included' : 'failed';
      if (values.json) {
        printJson(status === null ? { txid, state } : status.ok ? { txid, state, res: status.res, address: status.address, block: status.block } : { txid, state, reason: status.reason });
      } else if (status === null) {
        console.log(`${txid}  pending`);
      } else if (status.ok) {
        console.log(`${txid}  included in block ${status.block ?? '?'}${status.address ? `\naddress  ${status.address}` : ''}`);
      } else {
        console.log(`${txid}  failed: ${status.reason}`);
      }
      return status !== null && !status.ok ? EXIT.failed : EXIT.ok;
    },
    argv,
  );
}
