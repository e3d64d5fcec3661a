// A whole block as GET /api/block and the live stream send it: header, transactions read from
// the store, balances and ledger_patch rows, written into byte chunks one transaction at a time
// (see json-bytes.ts), so a block of thousands of transactions never becomes one large string.

import { bytesToHex } from '../../bytes.js';
import type { JsonValue } from '../base/json.js';
import type { JsonBytesWriter } from '../base/json-bytes.js';
import type { BlockRecord } from '../ledger/block.js';
import type { Chain } from '../ledger/chain.js';
import { ledgerPatchRows } from '../ledger/ledger-patch.js';
import { headerView, storedWalletView, txView, withReferenceAddresses } from './views.js';

/** Whether a transaction view is from, to or registers `hex` (uppercase address hex). */
function concerns(view: { [key: string]: JsonValue }, hex: string): boolean {
  return view.from === hex || view.to === hex || view.address === hex;
}

/** How a block answer writes transaction addresses: uppercase hex (SDK 2.1) or the reference's "0x" + lowercase. */
export type AddressForm = 'hex' | 'reference';

/**
 * A block as GET /api/block answers it, with its transactions read from the store, written
 * into `out`. With `onlyAddress` (the reference's `?addr=`), only that wallet's entry,
 * ledger_patch rows and transactions.
 */
export async function writeFullBlock(
  out: JsonBytesWriter,
  chain: Chain,
  r: BlockRecord,
  onlyAddress?: Uint8Array,
  /** Containers already in memory (a block just committed), read before the store. */
  known?: ReadonlyMap<string, Uint8Array>,
  /** Called after each transaction: an answer sent as it is made hands its chunks on here. */
  flush?: () => Promise<void>,
  /** The form of addresses in the views: the node's own hex, or the reference's "0x" lowercase. */
  form: AddressForm = 'hex',
): Promise<void> {
  const only = onlyAddress ? bytesToHex(onlyAddress, true) : undefined;
  out.text('{').member('hash', r.hash, true).member('header', headerView(r)).member('time', r.time).text(',"txs":{');
  const included = new Set<string>();
  for (const txid of r.txs) {
    const raw = known?.get(txid) ?? (await chain.txContainer(txid));
    if (!raw) continue;
    const view = txView(raw, r.registered?.[txid]);
    if (only !== undefined && !concerns(view, only)) continue;
    out.member(txid, form === 'reference' ? withReferenceAddresses(view) : view, included.size === 0);
    included.add(txid);
    if (flush) await flush();
  }
  const bals: { [key: string]: JsonValue } = {};
  for (const [address, stored] of Object.entries(r.bals)) if (only === undefined || address === only) bals[address] = storedWalletView(stored);
  const failed = only === undefined ? { ...r.failed } : Object.fromEntries(Object.entries(r.failed).filter(([txid]) => included.has(txid)));
  out
    .text('}')
    .member('failed', failed)
    .member('bals', bals)
    .member('ledger_patch', ledgerPatchRows(r.bals, r.header.height, only))
    .member('sign', [])
    .text('}');
}
