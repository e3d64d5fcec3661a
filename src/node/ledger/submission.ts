// Admitting a transaction: the submission checks (signatures on the verifier's threads), then
// duplicate detection (an identical body pending or included successfully answers with the first
// txid and queues nothing), the pending limits, and the write-ahead of the container in a synced
// group commit before the txid is acknowledged, so an accepted transaction survives a crash.

import { bytesToHex } from '../../bytes.js';
import { decodeTxid } from '../../codec/txid.js';
import { TpkitError, ValidationError } from '../../errors.js';
import type { Logger } from '../base/log.js';
import type { NodeConfig } from '../config/config.js';
import { GroupCommit } from '../store/group-commit.js';
import { bodyKey, pendingKey, PREFIX, statusKey } from '../store/keys.js';
import type { Store, StoreOp } from '../store/store.js';
import type { Mempool } from './mempool.js';
import type { NodeTx } from './node-tx.js';
import { refusedStatus } from './tx-status.js';
import { prepareSubmission, validateSubmission, type SubmissionContext } from './validate.js';
import type { SignatureVerifier } from './verifier.js';
import { isEthTx, type EthTxBody } from '../evm/eth-tx.js';
import { alreadyKnown, ethSubmissionRefusal } from './eth-checks.js';
import type { Wallet } from './wallet.js';

export interface SubmissionHost {
  readonly config: NodeConfig;
  readonly store: Store;
  readonly logger: Logger;
  readonly verifier: SignatureVerifier;
  /** The current mempool (a revert replaces it). */
  mempool(): Mempool;
  wallet(address: string): Wallet | undefined;
  /** Accepted transactions a fault rule keeps pending forever. */
  readonly held: Set<string>;
  context(): SubmissionContext;
  issueTxid(): { txid: string; timeNs: bigint };
  /** Throws while shutting down, else resolves once no dev operation holds the chain. */
  admit(): Promise<void>;
  /** Resolves once no dev operation holds the chain. */
  unblocked(): Promise<void>;
  /** Moves when a dev operation takes the chain and again when it lets go of it. */
  epoch(): number;
  /** Called after a transaction was accepted (an instant chain makes a block). */
  accepted(): void;
  /** Whether a transaction runs on the EVM; then the EVM is loaded before it is accepted. */
  runsEvm(tx: NodeTx): boolean;
  loadEvm(): Promise<unknown>;
  /** An Ethereum transaction decoded and checked (signature, chain id). */
  ethTx(raw: Uint8Array): Promise<NodeTx>;
  /** The EVM nonce of an account (40 hex digits). */
  evmNonce(key: string): bigint;
  /** The SK balance of an EVM account. */
  evmBalance(key: string): bigint;
}

const text = new TextDecoder();
const utf8 = new TextEncoder();

export class Submissions {
  private readonly writes: GroupCommit;

  constructor(private readonly host: SubmissionHost) {
    this.writes = new GroupCommit((ops) => host.store.batch(ops, { sync: host.store.persistent }));
  }

  /**
   * Checks a container and queues it; returns its txid. An identical body already pending or
   * included successfully returns the first txid and queues nothing.
   */
  async submit(raw: Uint8Array, options: { hold?: boolean } = {}): Promise<{ txid: string; duplicate: boolean }> {
    const host = this.host;
    return this.admit(async () => {
      const prepared = prepareSubmission(raw, host.context());
      const tx = prepared.complete(prepared.jobs.length ? await host.verifier.verify(prepared.jobs) : []);
      // A contract transaction needs the EVM: a node without its packages says so now, not in a block.
      if (host.runsEvm(tx)) await host.loadEvm();
      return tx;
    }, options);
  }

  /**
   * eth_sendRawTransaction: a signed Ethereum transaction, checked as geth checks it at
   * submission (ethSubmissionRefusal) and queued in its account's nonce order. The same bytes
   * again, waiting or included, are "already known".
   */
  async submitEth(raw: Uint8Array): Promise<{ txid: string; hash: string; duplicate: boolean }> {
    const host = this.host;
    let hash = '';
    const admitted = await this.admit(async () => {
      if (raw.length > host.config.limits.maxTxBytes) {
        throw new ValidationError('TX_TOO_LARGE', 'Transaction too large', { details: `limit ${host.config.limits.maxTxBytes} bytes, got ${raw.length}` });
      }
      const tx = await host.ethTx(raw);
      const body = tx.body as unknown as EthTxBody;
      if (host.mempool().txidForBody(tx.bodyHash) || (await host.store.get(bodyKey(tx.bodyHash)))) throw alreadyKnown(body.hash);
      const refusal = ethSubmissionRefusal(
        body,
        { nonce: host.evmNonce(body.from), balance: host.evmBalance(body.from) },
        { minGasPrice: BigInt(host.config.minGasPrice), blockGasLimit: BigInt(host.config.limits.blockGasLimit) },
      );
      if (refusal) throw refusal;
      hash = body.hash;
      return tx;
    }, {});
    // Sent twice at once, the second found the first only once it was queued.
    if (admitted.duplicate) throw alreadyKnown(hash);
    return { ...admitted, hash };
  }

  /** Checks a transaction (`checked`) and queues it, written ahead, unless it is a duplicate. */
  private async admit(checked: () => Promise<NodeTx>, options: { hold?: boolean }): Promise<{ txid: string; duplicate: boolean }> {
    const host = this.host;
    for (;;) {
      await host.admit();
      // A revert or rollback that began before the checks read the state (even in the turn
      // after admit() found the chain free) or between the checks and the queueing would
      // leave the transaction acknowledged on a state the chain no longer has: it is checked
      // again instead.
      const epoch = host.epoch();
      const tx = await checked();
      await host.unblocked();
      if (host.epoch() !== epoch) continue;
      if (options.hold) {
        // Acknowledged and never included: a wallet's "stuck transaction" path (dev API faults).
        // Held ones count against the pending limit, so a flood under a hold rule stays bounded.
        if (host.held.size + host.mempool().size >= host.config.limits.maxPending) {
          throw new ValidationError('MEMPOOL_FULL', 'Too many pending transactions', { details: `${host.held.size} are held by a fault rule; revert, roll back or restart to drop them` });
        }
        const { txid } = host.issueTxid();
        host.held.add(txid);
        return { txid, duplicate: false };
      }
      let pending = host.mempool().txidForBody(tx.bodyHash);
      if (pending) return { txid: pending, duplicate: true };
      if (this.mayBeIncluded(tx)) {
        const included = await host.store.get(bodyKey(tx.bodyHash));
        await host.unblocked();
        if (host.epoch() !== epoch) continue;
        if (included) return { txid: text.decode(included), duplicate: true };
        pending = host.mempool().txidForBody(tx.bodyHash); // it may have arrived meanwhile
        if (pending) return { txid: pending, duplicate: true };
      }
      const full = host.mempool().refusal(tx, host.config.limits);
      if (full) throw full;
      // An Ethereum transaction waiting behind a nonce gap may be replaced by a better-paying one.
      const replaced = host.mempool().replaced(tx, host.config.limits);
      if (replaced) host.mempool().drop(replaced);
      // The txid is taken only now, so a rejected or duplicate transaction consumes none.
      const { txid, timeNs } = host.issueTxid();
      tx.txid = txid;
      tx.timeNs = timeNs;
      // From here a dev operation waits for this write (idle()) before it starts.
      host.mempool().add(tx, false);
      try {
        await Promise.all([
          this.writes.add({ type: 'put', key: pendingKey(txid), value: tx.raw }),
          ...(replaced
            ? [this.writes.add({ type: 'del', key: pendingKey(replaced.txid) }), this.writes.add({ type: 'put', key: statusKey(replaced.txid), value: utf8.encode(refusedStatus('replaced')) })]
            : []),
        ]);
      } catch (cause) {
        const released = host.mempool().drop(tx);
        host.logger.error(`writing pending transactions failed: ${(cause as Error).message}`);
        if (released.length > 0) this.release(released);
        throw new ValidationError('STORE_UNAVAILABLE', 'The node could not store the transaction', { details: 'it was not accepted; retry later', cause });
      }
      host.mempool().markDurable(tx);
      host.accepted();
      return { txid, duplicate: false };
    }
  }

  /**
   * Ends acknowledged Ethereum transactions released behind a failed write: their pending
   * record goes, a status stating why comes (eth_getTransactionReceipt and /api/tx/status).
   */
  private release(released: NodeTx[]): void {
    const status = utf8.encode(refusedStatus('earlier_nonce_not_stored'));
    for (const t of released) {
      Promise.all([this.writes.add({ type: 'del', key: pendingKey(t.txid) }), this.writes.add({ type: 'put', key: statusKey(t.txid), value: status })]).catch((err: Error) => {
        this.host.logger.error(`recording ${t.txid} as released failed (it is pending again after a restart): ${err.message}`);
      });
    }
  }

  /** Resolves once every accepted transaction's write-ahead is on disk. */
  idle(): Promise<unknown> {
    return this.writes.idle();
  }

  /** Only a register, or a sender transaction whose seq is already used, can repeat an included one. */
  private mayBeIncluded(tx: NodeTx): boolean {
    const b = tx.body;
    if (b.kind === 'register') return true;
    if (b.kind === 'ether') return b.nonce < this.host.evmNonce(b.from);
    const w = this.host.wallet(bytesToHex(b.from));
    return w !== undefined && b.seq <= w.seq;
  }
}

/**
 * The pending transactions written ahead before a stop, checked again, in txid order. One that
 * no longer passes was acknowledged, so it must end with a status: it is recorded as failed,
 * with the reason.
 */
export async function restorePending(store: Store, context: SubmissionContext, logger: Logger, ethTx: (raw: Uint8Array) => Promise<NodeTx>): Promise<NodeTx[]> {
  const pending: NodeTx[] = [];
  const refused: StoreOp[] = [];
  for await (const [key, raw] of store.entries(PREFIX.pending)) {
    const txid = key.slice(PREFIX.pending.length);
    if (await store.get(statusKey(txid))) continue; // included already
    try {
      const tx = isEthTx(raw) ? await ethTx(raw) : validateSubmission(raw, context, { restoring: true });
      tx.txid = txid;
      tx.timeNs = decodeTxid(txid).timeNs;
      pending.push(tx);
    } catch (err) {
      const reason = err instanceof TpkitError ? err.code.toLowerCase() : 'invalid';
      logger.warn(`pending ${txid} no longer passes the checks, recorded as failed: ${(err as Error).message}`);
      refused.push({ type: 'del', key }, { type: 'put', key: statusKey(txid), value: utf8.encode(refusedStatus(reason)) });
    }
  }
  if (refused.length > 0) await store.batch(refused, { sync: true });
  return pending.sort((a, b) => (a.timeNs < b.timeNs ? -1 : a.timeNs > b.timeNs ? 1 : 0));
}
