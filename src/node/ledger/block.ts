// Block headers and their hash. As in the reference node (block:build_header2), the hash is
// SHA-256 over chain (u64), height (u64), the parent hash and the header's roots in order:
// here the transaction root, the balance root and the block time (u64 ms).

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { merkleRoot, sha256 } from './merkle.js';

export interface BlockHeader {
  chain: number;
  height: number;
  parent: Uint8Array;
  txroot: Uint8Array;
  balroot: Uint8Array;
  /** Block time, ms. */
  time: number;
}

function u64(n: number | bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

export function blockHash(h: BlockHeader): Uint8Array {
  return sha256(u64(h.chain), u64(h.height), h.parent, h.txroot, h.balroot, u64(h.time));
}

const utf8 = new TextEncoder();

/** Leaves of the transaction root: txid and container, in block (txid) order. */
export function txRoot(txs: readonly { txid: string; raw: Uint8Array }[]): Uint8Array {
  return merkleRoot(
    txs.map((tx) => {
      const id = utf8.encode(tx.txid);
      const leaf = new Uint8Array(id.length + 1 + tx.raw.length);
      leaf.set(id);
      leaf.set(tx.raw, id.length + 1); // a 0x00 separates the txid text from the container
      return leaf;
    }),
  );
}

/** What the store keeps for a block; transactions are stored apart, under their txids. */
export interface BlockRecord {
  hash: string;
  header: { chain: number; height: number; parent: string; roots: { txroot: string; balroot: string; mean_time: string }; ver: 2 };
  time: number;
  txs: string[];
  /** txid → reason, for transactions that are in the block but failed. */
  failed: Record<string, string>;
  /** txid → text address, for the registrations in the block. */
  registered: Record<string, string>;
  /** Wallets this block changed (address hex → stored wallet JSON). */
  bals: Record<string, unknown>;
  /** Wallets this block changed as they were before it (null: it made them); absent in blocks of older nodes. */
  pre?: Record<string, unknown>;
  /** Development credits of the faucet (dev API), outside any transaction. */
  mint?: { address: string; currency: string; amount: string }[];
}

const hex = (b: Uint8Array) => bytesToHex(b, true);

export function blockRecord(
  h: BlockHeader,
  hash: Uint8Array,
  contents: { txs: string[]; failed: Record<string, string>; registered: Record<string, string>; bals: Record<string, unknown> },
): BlockRecord {
  return {
    hash: hex(hash),
    header: {
      chain: h.chain,
      height: h.height,
      parent: hex(h.parent),
      roots: { txroot: hex(h.txroot), balroot: hex(h.balroot), mean_time: hex(u64(h.time)) },
      ver: 2,
    },
    time: h.time,
    ...contents,
  };
}

/** Recomputes a stored block's hash from its header: a check that the record is whole. */
export function recordHash(r: BlockRecord): string {
  return hex(
    blockHash({
      chain: r.header.chain,
      height: r.header.height,
      parent: hexToBytes(r.header.parent),
      txroot: hexToBytes(r.header.roots.txroot),
      balroot: hexToBytes(r.header.roots.balroot),
      time: r.time,
    }),
  );
}
