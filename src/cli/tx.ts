// `tpkit tx TXID`: a transaction explained from its block: kind, sender, recipient, amounts,
// fee, seq, time, who signed it, and how it ended.

import { UnknownTxError } from '../client/client-errors.js';
import { hexToBytes } from '../bytes.js';
import { ArgumentError } from '../errors.js';
import { explainBody, formatBody } from './explain-tx.js';
import { NODE_HELP, NODE_OPTIONS, EXIT, clientFrom, reportUnknownTx, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit tx TXID [options]

Fetches the transaction's status, then its block, and explains it: kind, from, to, each
payload item (transfer, fee), seq, time, the keys that signed it, and the result. Exit code
1 when it failed in its block or the node does not know it.

Options:
${NODE_HELP}`;

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'tx',
    async () => {
      const { values, positionals } = parseCommandArgs('tx', { args: argv, allowPositionals: true, options: NODE_OPTIONS });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      const txid = positionals[0];
      if (!txid || positionals.length > 1) throw new ArgumentError('Give one transaction id', { details: 'see `tpkit tx --help`' });
      const client = clientFrom(values);
      const signal = interruptSignal();
      let status;
      try {
        status = await client.getTxStatus(txid, { signal });
      } catch (err) {
        if (!(err instanceof UnknownTxError)) throw err;
        return reportUnknownTx(txid, values.json === true);
      }
      if (status === null) {
        if (values.json) printJson({ txid, state: 'pending' });
        else console.log(`${txid}  pending: not in a block yet`);
        return EXIT.ok;
      }
      const blockHash = status.block;
      const block = blockHash ? await client.getBlock(blockHash, { signal }) : undefined;
      const view = block?.txs?.[txid] as { body?: string; sig?: { extra?: { pubkey?: string } }[] } | undefined;
      const explained = view?.body ? explainBody(hexToBytes(view.body)) : undefined;
      const signers = (view?.sig ?? []).map((s) => s.extra?.pubkey).filter((k): k is string => typeof k === 'string');
      const state = status.ok ? 'included' : 'failed';
      if (values.json) {
        printJson({
          txid,
          state,
          block: blockHash,
          height: block?.header?.height,
          reason: status.ok ? undefined : status.reason,
          address: status.ok ? status.address : undefined,
          ...explained,
          signers,
        });
        return status.ok ? EXIT.ok : EXIT.failed;
      }
      const width = 9;
      console.log(`${'txid'.padEnd(width)}  ${txid}`);
      console.log(`${'status'.padEnd(width)}  ${status.ok ? 'included' : `failed: ${status.reason}`}${blockHash ? ` in block ${block?.header?.height ?? '?'} (${blockHash})` : ''}`);
      if (status.ok && status.address) console.log(`${'address'.padEnd(width)}  ${status.address} (registered)`);
      if (explained) for (const line of formatBody(explained, width)) console.log(line);
      // What moved, in one place: the transfers and the fee from the payload.
      const payload = (explained?.body.payload ?? []) as { purpose: string; currency: string; amount: string }[];
      const sum = (purpose: string) =>
        payload
          .filter((p) => p.purpose === purpose)
          .map((p) => `${p.amount} ${p.currency}`)
          .join(', ');
      if (sum('transfer')) console.log(`${'amount'.padEnd(width)}  ${sum('transfer')}`);
      if (sum('srcfee')) console.log(`${'fee'.padEnd(width)}  ${sum('srcfee')}`);
      for (const key of signers) console.log(`${'signed by'.padEnd(width)}  ${key}`);
      return status.ok ? EXIT.ok : EXIT.failed;
    },
    argv,
  );
}
