// One EVM (@ethereumjs/evm) over the ledger: runs a message (a call, an in-place deploy, an
// Ethereum transaction's call or create) against an EvmLedger and returns what it did: its
// end (return, revert, or an EVM error), the return data, the gas it used, its logs and the
// state it changed. A reverted or failed run changes nothing. Runs on one runner go one at a
// time: the EVM keeps per-run state, and a view must not interleave with a block's call. It
// lives in an EVM thread (evm-worker.ts), never on the node's main thread.

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { loadEvm, type EvmAddressObject, type EvmInstance, type EvmLib } from './load.js';
import { emptyChanges, LedgerStateManager, type AsyncEvmLedger, type EvmChanges } from './state.js';

/** An event as the EVM emitted it: the contract's EVM key, topics and data. */
export interface EvmLog {
  address: string;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface EvmMessage {
  /** EVM keys (40 hex digits). `to` absent: create a contract (Ethereum transactions). */
  caller: string;
  to?: string;
  data: Uint8Array;
  value: bigint;
  gasLimit: bigint;
  /** Code to run at `to` instead of its own: an in-place deploy's init code and arguments. */
  code?: Uint8Array;
  /** What GASPRICE answers: an Ethereum transaction's price per gas (0 when absent: a view, a ThePower transaction). */
  gasPrice?: bigint;
  /** Ethereum transactions bump the caller's nonce (and a create derives its address from it). */
  bumpNonce?: boolean;
  isStatic?: boolean;
  /** The block the message runs in: height and time in seconds. */
  height: bigint;
  timestamp: bigint;
}

export interface EvmRun {
  end: 'return' | 'revert' | 'error';
  returnData: Uint8Array;
  /** Gas used, refunds applied as Ethereum does (at most a fifth of the use). */
  gasUsed: bigint;
  logs: EvmLog[];
  /** For end 'error': the EVM's reason, snake_case (out_of_gas, invalid_opcode, …). */
  error?: string;
  /** The EVM key of the contract a create made. */
  created?: string;
  /** Empty unless the run returned. */
  changes: EvmChanges;
}

export class EvmRunner {
  private tail: Promise<unknown> = Promise.resolve();
  /** COINBASE: the node has no miner. Made once, not per run. */
  private readonly coinbase: EvmAddressObject;

  private constructor(
    private readonly lib: EvmLib,
    private readonly evm: EvmInstance,
    private readonly state: LedgerStateManager,
    /** The chain configuration Ethereum transactions are decoded with. */
    readonly common: unknown,
    /** What GASLIMIT answers: the node's block gas limit. */
    private readonly blockGasLimit: bigint,
    /** What BASEFEE answers: the base fee the node's blocks report (its minimum gas price). */
    private readonly baseFee: bigint,
  ) {
    this.coinbase = new lib.Address(new Uint8Array(20));
  }

  /** `chainId` is what CHAINID answers and what Ethereum transactions are signed for. */
  static async create(chainId: bigint, blockGasLimit = 30_000_000n, baseFee = 0n): Promise<EvmRunner> {
    const lib = await loadEvm();
    const common = lib.createCustomCommon({ chainId: Number(chainId) }, lib.Mainnet);
    const state = new LedgerStateManager(lib);
    const evm = await lib.createEVM({ common, stateManager: state });
    return new EvmRunner(lib, evm, state, common, blockGasLimit, baseFee);
  }

  get library(): EvmLib {
    return this.lib;
  }

  run(ledger: AsyncEvmLedger, message: EvmMessage): Promise<EvmRun> {
    const next = this.tail.then(() => this.runNow(ledger, message));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async runNow(ledger: AsyncEvmLedger, m: EvmMessage): Promise<EvmRun> {
    const { Address } = this.lib;
    this.state.begin(ledger);
    // Each run starts cold, as each Ethereum transaction does: the EVM keeps the addresses and
    // slots an earlier run touched warm until told otherwise, and gas would hang on history.
    this.evm.journal.cleanJournal();
    try {
      const caller = new Address(hexToBytes(m.caller));
      const result = await this.evm.runCall({
        caller,
        origin: caller,
        to: m.to === undefined ? undefined : new Address(hexToBytes(m.to)),
        data: m.data,
        code: m.code,
        value: m.value,
        gasLimit: m.gasLimit,
        gasPrice: m.gasPrice ?? 0n,
        isStatic: m.isStatic,
        skipNonceIncrement: !m.bumpNonce,
        block: blockOf(m.height, m.timestamp, this.coinbase, this.blockGasLimit, this.baseFee),
      });
      const exec = result.execResult;
      const used = exec.executionGasUsed;
      const refund = exec.gasRefund ?? 0n;
      const gasUsed = used - (refund < used / 5n ? refund : used / 5n);
      const failure = exec.exceptionError?.error;
      if (failure !== undefined) {
        this.state.finish();
        const reverted = failure === 'revert';
        return {
          end: reverted ? 'revert' : 'error',
          returnData: reverted ? exec.returnValue : new Uint8Array(0),
          gasUsed: reverted ? gasUsed : m.gasLimit,
          logs: [],
          ...(reverted ? {} : { error: failure.replace(/[^a-z0-9]+/gi, '_').toLowerCase() }),
          changes: emptyChanges(),
        };
      }
      const logs = (exec.logs ?? []).map(([address, topics, data]) => ({ address: bytesToHex(address), topics, data }));
      return {
        end: 'return',
        returnData: exec.returnValue,
        gasUsed,
        logs,
        ...(result.createdAddress ? { created: bytesToHex(result.createdAddress.bytes) } : {}),
        changes: this.state.finish(),
      };
    } catch (err) {
      this.state.finish();
      throw err;
    }
  }
}

/** The block header fields the EVM reads; the coinbase (COINBASE) is the zero address. */
function blockOf(height: bigint, timestamp: bigint, coinbase: EvmAddressObject, gasLimit: bigint, baseFee: bigint) {
  return {
    header: {
      number: height,
      coinbase,
      timestamp,
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit,
      baseFeePerGas: baseFee,
      getBlobGasPrice: () => 0n,
    },
  };
}
