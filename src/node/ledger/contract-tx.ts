// Contract transactions in a block: a deploy (kind 18, the code run at the sender's own
// address), a generic transaction to a wallet that holds code (a call, with its SK transfer as
// msg.value), and an Ethereum transaction (eth_sendRawTransaction). The checks that come
// before any change are the ledger's (seq, timestamp, fee, balances); then the fee and the
// whole gas payment are taken and the seq moves on, and the EVM runs. A run that returns
// commits its state, balances and events; one that reverts or fails undoes them, but the seq,
// the fee and the gas it used stay spent, as on the reference node and on Ethereum. Unused gas
// goes back in whole units; used gas joins the block's fees. A run past the block transaction
// time bound is stopped: it fails ("timeout") and uses all its gas, and the block goes on.

import { bytesToHex } from '../../bytes.js';
import { canPay, charge, checkSender, fail, type BlockDraft, type TxOutcome } from './apply.js';
import { PURPOSE_GAS, PURPOSE_TRANSFER, type NodeTx, type PayloadItem } from './node-tx.js';
import type { FeeRate } from '../../codec/fee.js';
import { evmKey } from '../evm/address.js';
import type { ContractState } from '../evm/contract-state.js';
import type { EthTxBody } from '../evm/eth-tx.js';
import { unitsLeft, gasFor, type GasRate } from '../evm/gas.js';
import { intrinsicGas, MAX_CODE_BYTES } from '../evm/eth-tx.js';
import { EVM_CURRENCY, splitChanges, walletLedger } from '../evm/ledger-view.js';
import { capEvents, storedLog, type StoredLog } from '../evm/logs.js';
import { revertReason } from '../evm/revert.js';
import type { EvmThread } from '../evm/evm-thread.js';
import type { EvmMessage, EvmRun } from '../evm/runner.js';
import { emptyChanges, mergeChanges, type EvmChanges, type EvmLedger } from '../evm/state.js';
import { TpkitError } from '../../errors.js';

/** The bounds a block puts on its contract transactions. */
export interface BlockEvmLimits {
  /** Gas of one block, and the most one transaction may use. */
  gasLimit: bigint;
  /** Milliseconds one transaction's run may take. */
  txTimeoutMs: number;
}

/** The EVM's share of a block being built. */
export class EvmBlock {
  readonly pending: EvmChanges = emptyChanges();
  readonly logs: StoredLog[] = [];
  readonly receipts: { hash: string; json: string }[] = [];
  /** Gas the block's contract transactions used so far: what the block gas limit counts. */
  gasUsed = 0n;
  /** The block's runs share one session on the thread: every change to `pending` is told to it. */
  private readonly session: { changes: EvmChanges[] } = { changes: [] };

  constructor(
    readonly runner: EvmThread,
    readonly limits: BlockEvmLimits,
    readonly state: ContractState,
    readonly gasRates: ReadonlyMap<string, GasRate>,
    readonly height: number,
    /** Block time, seconds. */
    readonly timestamp: number,
  ) {}

  ledger(draft: BlockDraft) {
    return walletLedger(this.state, (a) => draft.read(a), this.pending);
  }

  /** Applies EVM changes (a run's, or an account set here) to the draft's wallets and the block's EVM changes. */
  private commit(draft: BlockDraft, changes: EvmChanges): void {
    const { balances, rest } = splitChanges(changes);
    for (const [address, amount] of balances) {
      const w = draft.write(address);
      if (amount === 0n) w.amount.delete(EVM_CURRENCY);
      else w.amount.set(EVM_CURRENCY, amount);
    }
    this.addPending(rest);
  }

  private addPending(changes: EvmChanges): void {
    mergeChanges(this.pending, changes);
    if (changes.code.size > 0 || changes.storage.size > 0) this.session.changes.push(changes);
  }

  private record(tx: NodeTx, txIndex: number, caller: string, run: EvmRun, hash: string, to: string | null, created?: string): void {
    if (run.end === 'return') {
      for (const log of run.logs) this.logs.push(storedLog({ txid: tx.txid, txIndex, logIndex: this.logs.length, caller }, log));
    }
    const receipt = {
      hash,
      txid: tx.txid,
      height: this.height,
      index: txIndex,
      from: caller,
      to,
      status: run.end === 'return' ? 1 : 0,
      gasUsed: run.gasUsed.toString(),
      ...(created ? { created } : {}),
    };
    this.receipts.push({ hash, json: JSON.stringify(receipt) });
  }

  /** One run, stopped past the time bound: then a failure that used all its gas. */
  private async run(ledger: EvmLedger, message: EvmMessage): Promise<EvmRun> {
    try {
      return await this.runner.run(ledger, message, { timeoutMs: this.limits.txTimeoutMs, session: this.session });
    } catch (err) {
      if (!(err instanceof TpkitError) || err.code !== 'EVM_TIMEOUT') throw err;
      return { end: 'error', error: 'timeout', returnData: new Uint8Array(0), gasUsed: message.gasLimit, logs: [], changes: emptyChanges() };
    }
  }

  code(key: string): Uint8Array | undefined {
    return this.pending.code.get(key) ?? this.state.code.get(key);
  }

  /** A deploy (to === undefined) or a call, from a ThePower wallet. */
  async applyPower(draft: BlockDraft, tx: NodeTx, txIndex: number, now: number, fees: ReadonlyMap<string, FeeRate>, txHash: string): Promise<TxOutcome> {
    const body = tx.body;
    if (body.kind !== 'deploy' && body.kind !== 'generic') throw new Error(`not a contract transaction: ${body.kind}`);
    const sender = checkSender(draft, tx, body.from, body.seq, body.t, now);
    if (!('amount' in sender)) return sender;
    if (body.kind === 'generic' && body.badCall) return fail('bad_call');
    const gasItem = body.payload.find((p) => p.purpose === PURPOSE_GAS && this.gasRates.has(p.currency) && p.amount > 0n);
    if (!gasItem) return fail('insufficient_gas');
    const rate = this.gasRates.get(gasItem.currency)!;
    // Value (msg.value) is the SK transferred; other currencies move as a plain transfer would.
    const transfers = body.payload.filter((p) => p.purpose === PURPOSE_TRANSFER && p.amount > 0n);
    const value = transfers.filter((p) => p.currency === EVM_CURRENCY).reduce((a, p) => a + p.amount, 0n);
    const paid = charge(tx, body.payload, { fees }, true);
    if (!('need' in paid)) return paid;
    paid.need.set(gasItem.currency, (paid.need.get(gasItem.currency) ?? 0n) + gasItem.amount);
    if (!canPay(sender, paid.need)) return fail('insufficient_fund');

    const fromHex = bytesToHex(body.from);
    const w = draft.write(fromHex);
    w.seq = body.seq;
    w.t = body.t;
    if (paid.fee) draft.feeTotals.set(paid.fee.currency, (draft.feeTotals.get(paid.fee.currency) ?? 0n) + paid.fee.cost);
    if (paid.fee) w.amount.set(paid.fee.currency, (w.amount.get(paid.fee.currency) ?? 0n) - paid.fee.cost);
    w.amount.set(gasItem.currency, (w.amount.get(gasItem.currency) ?? 0n) - gasItem.amount);

    const caller = evmKey(body.from);
    const bought = gasFor(gasItem.amount, rate);
    const gasLimit = bought < this.limits.gasLimit ? bought : this.limits.gasLimit;
    const deploy = body.kind === 'deploy';
    const to = deploy ? caller : evmKey(body.to);
    let run = await this.run(this.ledger(draft), {
      caller,
      to,
      data: deploy ? new Uint8Array(0) : (body.call ?? new Uint8Array(0)),
      ...(deploy ? { code: concat(body.code, body.args) } : {}),
      value,
      gasLimit,
      height: BigInt(this.height),
      timestamp: BigInt(this.timestamp),
    });
    run = capEvents(run, gasLimit);
    // EIP-170 holds at both deploy doors: code over 24,576 bytes fails the deploy, all gas spent, as a create does.
    if (deploy && run.end === 'return' && run.returnData.length > MAX_CODE_BYTES)
      run = { ...run, end: 'error', error: 'code_too_large', gasUsed: gasLimit, returnData: new Uint8Array(0), logs: [], changes: emptyChanges() };
    // The run's balances first (they were read before the refund), then unused gas back to
    // the sender and used gas to the block's fees.
    this.gasUsed += run.gasUsed;
    if (run.end === 'return') this.commit(draft, run.changes);
    const back = unitsLeft(gasItem.amount, run.gasUsed, rate);
    const sw = draft.write(fromHex);
    sw.amount.set(gasItem.currency, (sw.amount.get(gasItem.currency) ?? 0n) + back);
    const spent = gasItem.amount - back;
    if (spent > 0n) draft.feeTotals.set(gasItem.currency, (draft.feeTotals.get(gasItem.currency) ?? 0n) + spent);
    this.record(tx, txIndex, caller, run, txHash, deploy ? null : to);
    if (run.end !== 'return') return runFailure(run);
    if (deploy) {
      const code = emptyChanges();
      code.code.set(caller, run.returnData);
      this.addPending(code);
    }
    moveOthers(draft, fromHex, deploy ? fromHex : bytesToHex((body as { to: Uint8Array }).to), transfers);
    if (deploy) return { ok: true, address: body.from };
    return run.returnData.length > 0 ? { ok: true, retval: run.returnData } : { ok: true };
  }

  /** An Ethereum transaction: nonce, gas at its price in SK, then the run (or the create). */
  async applyEther(draft: BlockDraft, tx: NodeTx, txIndex: number, fees: BlockDraft['feeTotals']): Promise<TxOutcome> {
    const body = tx.body as unknown as EthTxBody;
    const ledger = this.ledger(draft);
    const account = ledger.account(body.from) ?? { balance: 0n, nonce: 0n };
    if (body.nonce !== account.nonce) return fail(body.nonce < account.nonce ? 'nonce_too_low' : 'nonce_too_high');
    const intrinsic = intrinsicGas(body.data, body.to === undefined);
    const maxCost = body.gasLimit * body.gasPrice;
    // Checked at submission; failing here (the balance spent since), it still uses its nonce and
    // gets a receipt, so the account's later transactions follow and the hash has an answer.
    // (A gas limit over the block's is refused at submission too; one that got in before the
    // limit was lowered fails here, unrun.)
    const early =
      body.gasLimit < intrinsic ? 'intrinsic_gas_too_low' : body.gasLimit > this.limits.gasLimit ? 'exceeds_block_gas_limit' : account.balance < maxCost + body.value ? 'insufficient_fund' : undefined;
    if (early) {
      this.setAccount(draft, body.from, { balance: account.balance, nonce: account.nonce + 1n });
      this.record(tx, txIndex, body.from, { end: 'error', returnData: new Uint8Array(0), gasUsed: 0n, logs: [], error: early, changes: emptyChanges() }, body.hash, body.to ?? null);
      return { ok: false, reason: early, spent: true };
    }
    // The gas is paid up front from the account; the run sees what is left.
    const before = { balance: account.balance - maxCost, nonce: account.nonce };
    this.setAccount(draft, body.from, before);
    const runGas = body.gasLimit - intrinsic;
    const uncapped = await this.run(this.ledger(draft), {
      caller: body.from,
      ...(body.to === undefined ? {} : { to: body.to }),
      data: body.data,
      value: body.value,
      gasLimit: runGas,
      gasPrice: body.gasPrice,
      bumpNonce: true,
      height: BigInt(this.height),
      timestamp: BigInt(this.timestamp),
    });
    const run = capEvents(uncapped, runGas);
    const used = intrinsic + run.gasUsed;
    this.gasUsed += used;
    if (run.end === 'return') this.commit(draft, run.changes);
    const after = this.ledger(draft).account(body.from) ?? before;
    // A failed run still uses its nonce, as on Ethereum.
    this.setAccount(draft, body.from, { balance: after.balance + (body.gasLimit - used) * body.gasPrice, nonce: account.nonce + 1n });
    const cost = used * body.gasPrice;
    if (cost > 0n) fees.set(EVM_CURRENCY, (fees.get(EVM_CURRENCY) ?? 0n) + cost);
    this.record(tx, txIndex, body.from, { ...run, gasUsed: used }, body.hash, body.to ?? null, run.created);
    if (run.end !== 'return') return runFailure(run);
    if (run.created) return { ok: true, created: run.created };
    return run.returnData.length > 0 ? { ok: true, retval: run.returnData } : { ok: true };
  }

  private setAccount(draft: BlockDraft, key: string, account: { balance: bigint; nonce: bigint }): void {
    const changes = emptyChanges();
    changes.accounts.set(key, account);
    this.commit(draft, changes);
  }
}

function concat(code: Uint8Array, args: Uint8Array | undefined): Uint8Array {
  if (!args || args.length === 0) return code;
  const out = new Uint8Array(code.length + args.length);
  out.set(code);
  out.set(args, code.length);
  return out;
}

/** Transfers of other currencies than SK move only when the run succeeded. */
function moveOthers(draft: BlockDraft, from: string, to: string, transfers: PayloadItem[]): void {
  for (const item of transfers) {
    if (item.currency === EVM_CURRENCY) continue;
    const f = draft.write(from);
    f.amount.set(item.currency, (f.amount.get(item.currency) ?? 0n) - item.amount);
    const t = draft.write(to);
    t.amount.set(item.currency, (t.amount.get(item.currency) ?? 0n) + item.amount);
  }
}

function runFailure(run: EvmRun): TxOutcome {
  if (run.end === 'revert') return { ok: false, reason: 'revert', revert: revertReason(run.returnData).text, spent: true };
  return { ok: false, reason: run.error === 'out_of_gas' ? 'insufficient_gas' : (run.error ?? 'evm_error'), spent: true };
}

/**
 * The gas a transaction may use in a block, counted before it runs: an Ethereum
 * transaction's limit, the gas a deploy or call buys (at most the block's limit), else 0.
 */
export function txGas(tx: NodeTx, gasRates: ReadonlyMap<string, GasRate>, blockLimit: bigint): bigint {
  const b = tx.body;
  if (b.kind === 'ether') {
    const limit = (b as unknown as EthTxBody).gasLimit;
    return limit > blockLimit ? 0n : limit;
  }
  if (b.kind !== 'deploy' && b.kind !== 'generic') return 0n;
  const item = b.payload.find((p) => p.purpose === PURPOSE_GAS && gasRates.has(p.currency) && p.amount > 0n);
  if (!item) return 0n;
  const bought = gasFor(item.amount, gasRates.get(item.currency)!);
  return bought < blockLimit ? bought : blockLimit;
}
