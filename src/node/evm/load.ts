// The EVM packages, loaded on first use: a node that never touches a contract, and every
// wallet that embeds tpkit, loads none of them. They are optional peer dependencies, as
// classic-level is; a node without them answers contract requests with DEPENDENCY_MISSING.

import { TpkitError } from '../../errors.js';

// The shapes used of the packages are written out here, not imported from their types, so
// that tpkit's declarations type-check in a project that does not install them.

export interface EvmAddressObject {
  bytes: Uint8Array;
  toString(): string;
}

export interface EvmResult {
  createdAddress?: EvmAddressObject;
  execResult: {
    exceptionError?: { error: string };
    executionGasUsed: bigint;
    gasRefund?: bigint;
    returnValue: Uint8Array;
    logs?: [Uint8Array, Uint8Array[], Uint8Array][];
  };
}

export interface EvmInstance {
  /** Warm addresses and slots (EIP-2929), kept across runCall calls until cleaned. */
  journal: { cleanJournal(): void };
  runCall(opts: {
    caller: EvmAddressObject;
    origin: EvmAddressObject;
    to?: EvmAddressObject;
    data: Uint8Array;
    code?: Uint8Array;
    value: bigint;
    gasLimit: bigint;
    gasPrice: bigint;
    isStatic?: boolean;
    skipNonceIncrement: boolean;
    block: unknown;
  }): Promise<EvmResult>;
}

/** A decoded, signed Ethereum transaction (legacy, EIP-2930 or EIP-1559). */
export interface EthTxObject {
  type: number;
  nonce: bigint;
  gasLimit: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  to?: EvmAddressObject;
  value: bigint;
  data: Uint8Array;
  v?: bigint;
  r?: bigint;
  s?: bigint;
  getSenderAddress(): EvmAddressObject;
  hash(): Uint8Array;
  verifySignature(): boolean;
}

export interface EvmLib {
  createEVM(opts: { common: unknown; stateManager: unknown }): Promise<EvmInstance>;
  createCustomCommon(config: { chainId: number }, base: unknown): unknown;
  Mainnet: unknown;
  Account: new (nonce: bigint, balance: bigint, storageRoot: Uint8Array, codeHash: Uint8Array, codeSize: number) => object;
  Address: new (bytes: Uint8Array) => EvmAddressObject;
  KECCAK256_NULL: Uint8Array;
  KECCAK256_RLP: Uint8Array;
  keccak256(data: Uint8Array): Uint8Array;
  createTxFromRLP(data: Uint8Array, opts: { common: unknown }): EthTxObject;
}

let loading: Promise<EvmLib> | undefined;

export function loadEvm(): Promise<EvmLib> {
  loading ??= (async () => {
    try {
      const [evm, common, util, tx, sha3] = await Promise.all([
        import('@ethereumjs/evm'),
        import('@ethereumjs/common'),
        import('@ethereumjs/util'),
        import('@ethereumjs/tx'),
        import('@noble/hashes/sha3.js'),
      ]);
      return {
        createEVM: evm.createEVM as unknown as EvmLib['createEVM'],
        createCustomCommon: common.createCustomCommon as unknown as EvmLib['createCustomCommon'],
        Mainnet: common.Mainnet,
        Account: util.Account as unknown as EvmLib['Account'],
        Address: util.Address as unknown as EvmLib['Address'],
        KECCAK256_NULL: util.KECCAK256_NULL,
        KECCAK256_RLP: util.KECCAK256_RLP,
        keccak256: sha3.keccak_256,
        createTxFromRLP: tx.createTxFromRLP as unknown as EvmLib['createTxFromRLP'],
      };
    } catch (cause) {
      loading = undefined;
      throw new TpkitError('DEPENDENCY_MISSING', 'The node needs the EVM packages to run contracts', {
        details: 'install them next to tpkit: npm install @ethereumjs/evm @ethereumjs/common @ethereumjs/util @ethereumjs/tx',
        cause,
      });
    }
  })();
  return loading;
}
