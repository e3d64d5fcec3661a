// Building one block from pending transactions: apply them in order on a draft of the ledger,
// hash the header, and write out the store batch (block, transactions, statuses, wallets, head)
// that commits it as one. Nothing here touches the live ledger: the caller makes the block
// visible only once the batch is on disk. The work runs in slices with the event loop let in
// between, so submissions keep being answered while a large block is built (a 5000-transaction
// block is ~100 ms of work).

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { addressToText, makeAddress } from '../../codec/address.js';
import type { FeeRate } from '../../codec/fee.js';
import type { NodeConfig } from '../config/config.js';
import { bodyKey, hashKey, heightKey, META_KEY, pendingKey, statusKey, txKey, walletKey } from '../store/keys.js';
import type { StoreOp } from '../store/store.js';
import { applyTx, BlockDraft, depositFees, type ApplyContext, type TxOutcome } from './apply.js';
import { blockHash, blockRecord, txRoot, type BlockRecord } from './block.js';
import { walletBefore } from './ledger-patch.js';
import { merkleRoot } from './merkle.js';
import type { NodeTx } from './node-tx.js';
import { createdStatus, failedStatus, okStatus, retvalStatus } from './tx-status.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Logger } from '../base/log.js';
import type { ContractState } from '../evm/contract-state.js';
import type { GasRate } from '../evm/gas.js';
import type { EvmThread } from '../evm/evm-thread.js';
import { EvmBlock, txGas, type BlockEvmLimits } from './contract-tx.js';
import { TpkitError } from '../../errors.js';
import { encodeWallet, storedWallet, walletStateBytes, ZERO_HASH, type Wallet } from './wallet.js';

/** Development money: credited in the next block, outside any transaction (dev API faucet). */
export interface Mint {
  /** Lowercase address hex. */
  address: string;
  currency: string;
  amount: bigint;
}

/** The chain head a block builds on. */
export interface Head {
  height: number;
  hash: Uint8Array;
  time: number;
  allocLast: number;
}

export interface BlockInput {
  config: NodeConfig;
  fees: Map<string, FeeRate>;
  feeAddress: Uint8Array;
  wallets: ReadonlyMap<string, Wallet>;
  /** Wallet address by key hex, for registers of a key that has a wallet. */
  owners: ReadonlyMap<string, string>;
  head: Head;
  now: number;
  /** In order; the block takes the longest front whose contract gas fits. */
  txs: NodeTx[];
  mints: Mint[];
  /** The stored chain head for the new block (META_KEY's value). */
  metaBytes(head: Head): Uint8Array;
  /** What contract transactions need (contract-tx.ts). */
  evm: {
    contracts: ContractState;
    gasRates: ReadonlyMap<string, GasRate>;
    runner(): Promise<EvmThread>;
    limits: BlockEvmLimits;
    runsEvm(tx: NodeTx, block?: EvmBlock): boolean;
  };
  logger: Logger;
}

export interface BuiltBlock {
  /** The front of the input the block holds: what did not fit its gas waits. */
  txs: NodeTx[];
  record: BlockRecord;
  head: Head;
  /** The store batch that commits the block. */
  ops: StoreOp[];
  /** Status JSON of each transaction, in the order of the input. */
  statuses: string[];
  /** Wallets the block changed, by address, sorted. */
  changed: [string, Wallet][];
  failedCount: number;
  /** The block's contract state changes and events, when it ran any contract. */
  evm?: EvmBlock;
}

/** Transactions applied or serialized between two turns of the event loop. */
const SLICE = 256;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function buildBlock(input: BlockInput): Promise<BuiltBlock> {
  const { config, mints, head: parent, now } = input;
  const height = parent.height + 1;
  const draft = new BlockDraft(input.wallets, parent.allocLast, input.owners);
  const ctx: ApplyContext = {
    now,
    fees: input.fees,
    allocAddress: (n) => makeAddress({ group: config.allocGroup, block: config.chain, wallet: n }),
  };
  const outcomes: TxOutcome[] = [];
  let evm: EvmBlock | undefined;
  let end = input.txs.length;
  for (let i = 0; i < end; i++) {
    const tx = input.txs[i];
    if (input.evm.runsEvm(tx, evm)) {
      // As geth fills a block: a contract transaction goes in while the gas it may use fits what
      // the block has left (counted by what the earlier ones used); it and the rest wait.
      if (txGas(tx, input.evm.gasRates, input.evm.limits.gasLimit) > input.evm.limits.gasLimit - (evm?.gasUsed ?? 0n)) {
        end = i;
        break;
      }
      try {
        evm ??= new EvmBlock(await input.evm.runner(), input.evm.limits, input.evm.contracts, input.evm.gasRates, height, Math.floor(Math.max(now, parent.time) / 1000));
        outcomes.push(tx.body.kind === 'ether' ? await evm.applyEther(draft, tx, i, draft.feeTotals) : await evm.applyPower(draft, tx, i, now, input.fees, bytesToHex(keccak_256(tx.raw))));
      } catch (err) {
        // The node is closing: the block is abandoned, its transactions stay pending on disk.
        if (err instanceof TpkitError && err.code === 'NODE_SHUTTING_DOWN') throw err;
        // The EVM packages went missing, or the EVM itself failed: this transaction fails, the block goes on.
        input.logger.error(`${tx.txid}: the EVM failed: ${(err as Error).message}`);
        outcomes.push({ ok: false, reason: 'evm_unavailable' });
      }
    } else outcomes.push(applyTx(draft, tx, ctx));
    if (i % SLICE === SLICE - 1) await yieldToEventLoop();
  }
  const txs = end === input.txs.length ? input.txs : input.txs.slice(0, end);
  depositFees(draft, bytesToHex(input.feeAddress));
  for (const m of mints) {
    const w = draft.write(m.address);
    w.amount.set(m.currency, (w.amount.get(m.currency) ?? 0n) + m.amount);
  }

  const addresses = [...draft.changed.keys()].sort();
  const header = {
    chain: config.chain,
    height,
    parent: parent.hash,
    txroot: txRoot(txs),
    balroot: merkleRoot(addresses.map((a) => walletStateBytes(a, draft.changed.get(a)!))),
    time: Math.max(now, parent.time),
  };
  const hash = blockHash(header);
  const hashHex = bytesToHex(hash, true);
  await yieldToEventLoop();

  const ops: StoreOp[] = [];
  const statuses: string[] = [];
  const failed: Record<string, string> = {};
  const registered: Record<string, string> = {};
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i];
    const outcome = outcomes[i];
    let status: string;
    if (outcome.ok) {
      const address = outcome.address ? addressToText(outcome.address) : undefined;
      // A deploy names its contract as a register names its wallet, but registered{} is for registers.
      if (address !== undefined && tx.body.kind === 'register') registered[tx.txid] = address;
      if (outcome.created) status = createdStatus(hashHex, outcome.created);
      else if (outcome.retval) status = retvalStatus(hashHex, outcome.retval);
      else status = okStatus(hashHex, address);
      ops.push({ type: 'put', key: bodyKey(tx.bodyHash), value: Buffer.from(tx.txid) });
    } else {
      failed[tx.txid] = outcome.reason;
      status = failedStatus(hashHex, outcome.reason, outcome.cost, outcome.revert);
      // A contract run that spent its seq cannot be sent again: its body is as used as a successful one.
      if (outcome.spent) ops.push({ type: 'put', key: bodyKey(tx.bodyHash), value: Buffer.from(tx.txid) });
    }
    statuses.push(status);
    ops.push({ type: 'del', key: pendingKey(tx.txid) });
    ops.push({ type: 'put', key: txKey(tx.txid), value: tx.raw });
    ops.push({ type: 'put', key: statusKey(tx.txid), value: Buffer.from(status) });
    if (i % SLICE === SLICE - 1) await yieldToEventLoop();
  }
  const bals: Record<string, unknown> = {};
  // Each wallet as it was before this block (null: the block made it), dev API edits
  // included: what a rollback puts back (dev/rollback.ts).
  const pre: Record<string, unknown> = {};
  const changed: [string, Wallet][] = [];
  for (let i = 0; i < addresses.length; i++) {
    const a = addresses[i];
    const w = draft.changed.get(a)!;
    const before = input.wallets.get(a);
    const was = walletBefore(before, w);
    pre[a.toUpperCase()] = before ? storedWallet(before) : null;
    w.preblk = w.lastblk;
    w.lastblk = hash;
    w.height = height;
    const stored = storedWallet(w);
    bals[a.toUpperCase()] = { ...stored, was };
    changed.push([a, w]);
    ops.push({ type: 'put', key: walletKey(a), value: Buffer.from(JSON.stringify(stored)) });
    if (i % SLICE === SLICE - 1) await yieldToEventLoop();
  }
  const record = blockRecord(header, hash, { txs: txs.map((tx) => tx.txid), failed, registered, bals });
  record.pre = pre;
  if (mints.length > 0) record.mint = mints.map((m) => ({ address: addressToText(hexToBytes(m.address)), currency: m.currency, amount: String(m.amount) }));
  const head: Head = { height, hash, time: header.time, allocLast: draft.allocLast };
  ops.push({ type: 'put', key: heightKey(height), value: Buffer.from(JSON.stringify(record)) });
  ops.push({ type: 'put', key: hashKey(hashHex), value: Buffer.from(String(height)) });
  ops.push({ type: 'put', key: META_KEY, value: input.metaBytes(head) });
  if (evm) {
    const logs = evm.logs.length > 0 ? { height, hash: hashHex, logs: evm.logs } : undefined;
    ops.push(...(await input.evm.contracts.blockOps(height, evm.pending, logs, evm.receipts)));
  }
  return { txs, record, head, ops, statuses, changed, failedCount: Object.keys(failed).length, ...(evm ? { evm } : {}) };
}

/**
 * Block 0 over the genesis wallets, at a fixed time so the same config always gives the same
 * hash. Sets each wallet's last block; the ops store the wallets and the block (not the head).
 */
export function buildGenesisBlock(chain: number, wallets: ReadonlyMap<string, Wallet>): { record: BlockRecord; hash: Uint8Array; ops: StoreOp[] } {
  const addresses = [...wallets.keys()].sort();
  const header = {
    chain,
    height: 0,
    parent: ZERO_HASH,
    txroot: merkleRoot([]),
    balroot: merkleRoot(addresses.map((a) => walletStateBytes(a, wallets.get(a)!))),
    time: 0,
  };
  const hash = blockHash(header);
  const ops: StoreOp[] = [];
  const bals: Record<string, unknown> = {};
  for (const a of addresses) {
    const w = wallets.get(a)!;
    w.lastblk = hash;
    const stored = encodeWallet(w);
    bals[a.toUpperCase()] = { ...JSON.parse(Buffer.from(stored).toString()), was: null };
    ops.push({ type: 'put', key: walletKey(a), value: stored });
  }
  const record = blockRecord(header, hash, { txs: [], failed: {}, registered: {}, bals });
  ops.push({ type: 'put', key: heightKey(0), value: Buffer.from(JSON.stringify(record)) });
  ops.push({ type: 'put', key: hashKey(record.hash), value: Buffer.from('0') });
  return { record, hash, ops };
}
