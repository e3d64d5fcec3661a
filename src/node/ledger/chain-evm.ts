// The chain's EVM part: contract state, gas rates, the two EVM threads (one for views, one for
// block transactions, so a view never waits behind a block nor a block behind views) and the
// bounds geth puts on views: a gas cap (--rpc.gascap), a time bound (--rpc.evmtimeout) and a
// bounded queue. The threads start on first use (loading the EVM packages).

import type { NodeLimits } from '../config/config.js';
import { TpkitError } from '../../errors.js';
import { evmKey } from '../evm/address.js';
import { ContractState } from '../evm/contract-state.js';
import { decodeEthTx } from '../evm/eth-tx.js';
import { EvmThread } from '../evm/evm-thread.js';
import { DEFAULT_GAS_RATES, gasRates, type GasRate } from '../evm/gas.js';
import { walletLedger } from '../evm/ledger-view.js';
import type { EvmRun } from '../evm/runner.js';
import type { EvmLedger } from '../evm/state.js';
import type { EvmBlock } from './contract-tx.js';
import type { NodeTx } from './node-tx.js';
import type { Wallet } from './wallet.js';
import type { Store } from '../store/store.js';

export interface EvmThreads {
  block: EvmThread;
  view: EvmThread;
}

/** A view as eth_call, eth_estimateGas and POST execute/call ask for it. */
export interface ViewMessage {
  caller: string;
  to?: string;
  data: Uint8Array;
  value: bigint;
  gasLimit: bigint;
}

function shuttingDown(): TpkitError {
  return new TpkitError('NODE_SHUTTING_DOWN', 'The node is shutting down', { details: 'it runs no contract any more' });
}

export class ChainEvm {
  /** Contract code and storage, EVM accounts, the heights with events (evm/contract-state.ts). */
  contracts: ContractState;
  /** What a unit of each currency buys in gas (the settings' current.gas). */
  readonly gasRates: Map<string, GasRate> = gasRates(DEFAULT_GAS_RATES);
  /** What eth_chainId answers and CHAINID gives: the chain number + 10^9, as the reference. */
  readonly ethChainId: bigint;
  private threads: Promise<EvmThreads> | undefined;
  /** Set by close: no thread starts again. */
  closed = false;

  constructor(
    chain: number,
    /** The node's minimum gas price: its blocks' base fee, what BASEFEE answers. */
    private readonly minGasPrice: number,
    private readonly limits: NodeLimits,
    private readonly wallet: (address: string) => Wallet | undefined,
    store: Store,
  ) {
    this.ethChainId = BigInt(chain) + 1_000_000_000n;
    this.contracts = new ContractState(store, limits.slotCacheEntries);
  }

  /** The most gas one block's transactions may use together, and one transaction alone. */
  get blockGasLimit(): bigint {
    return BigInt(this.limits.blockGasLimit);
  }

  /** The EVM threads, started on first use. */
  evm(): Promise<EvmThreads> {
    if (this.closed) return Promise.reject(shuttingDown());
    const make = (name: string, maxQueue: number) => EvmThread.create({ chainId: this.ethChainId, blockGasLimit: this.blockGasLimit, baseFee: BigInt(this.minGasPrice), maxQueue, name });
    this.threads ??= Promise.all([make('block', Number.MAX_SAFE_INTEGER), make('view', this.limits.viewQueue)]).then(
      ([block, view]) => {
        // Closed while starting: nothing may keep running.
        if (this.closed) void Promise.all([block.close(), view.close()]);
        return { block, view };
      },
      (err) => {
        this.threads = undefined;
        throw err;
      },
    );
    return this.threads;
  }

  /** The committed state as the EVM reads it. */
  ledger(): EvmLedger {
    return walletLedger(this.contracts, this.wallet);
  }

  /**
   * A view at the head: its gas lowered to the cap as geth does, stopped past the time bound
   * (EVM_TIMEOUT), dropped or stopped when `signal` aborts (the client hung up).
   */
  async view(m: ViewMessage, height: number, signal?: AbortSignal, onStart?: () => void): Promise<EvmRun> {
    const { view } = await this.evm();
    const cap = BigInt(this.limits.viewGasCap);
    // A create (no `to`) derives its address from the caller's nonce, which the run must move on
    // as a transaction does; a view's changes are dropped anyway.
    const create = m.to === undefined ? { bumpNonce: true } : {};
    const message = { ...m, ...create, gasLimit: m.gasLimit > cap ? cap : m.gasLimit, height: BigInt(height), timestamp: BigInt(Math.floor(Date.now() / 1000)) };
    return view.run(this.ledger(), message, { timeoutMs: this.limits.viewTimeoutMs, ...(signal ? { signal } : {}), ...(onStart ? { onStart } : {}) });
  }

  /** Whether a transaction runs on the EVM: a deploy, an Ethereum one, or a call to a wallet with code. */
  runsEvm(tx: NodeTx, block?: EvmBlock): boolean {
    const b = tx.body;
    if (b.kind === 'deploy' || b.kind === 'ether') return true;
    if (b.kind !== 'generic' || (this.contracts.code.size === 0 && !block)) return false;
    const key = evmKey(b.to);
    return (block?.code(key) ?? this.contracts.code.get(key)) !== undefined;
  }

  /** An Ethereum transaction as the mempool keeps it (its hash is its body hash). */
  async ethTx(raw: Uint8Array): Promise<NodeTx> {
    const { block } = await this.evm();
    const body = decodeEthTx(raw, block.library, block.common, this.ethChainId);
    return { txid: '', timeNs: 0n, raw, bodyLength: raw.length, bodyHash: body.hash, body, signers: [] };
  }

  /** Stops both threads: a running view or block transaction ends now (NODE_SHUTTING_DOWN). */
  async close(): Promise<void> {
    this.closed = true;
    const threads = await this.threads?.catch(() => undefined);
    if (threads) await Promise.all([threads.block.close(), threads.view.close()]);
  }
}
