// The EVM packages, loaded on first use: a node that never touches a contract, and every
// wallet that embeds tpkit, loads none of them. They are optional peer dependencies, as
// classic-level is; a node without them answers contract requests with DEPENDENCY_MISSING.

import { TpkitError } from '../../errors.js';

export interface EvmLib {
  createEVM: typeof import('@ethereumjs/evm').createEVM;
  createCustomCommon: typeof import('@ethereumjs/common').createCustomCommon;
  Mainnet: typeof import('@ethereumjs/common').Mainnet;
  Account: typeof import('@ethereumjs/util').Account;
  Address: typeof import('@ethereumjs/util').Address;
  KECCAK256_NULL: Uint8Array;
  KECCAK256_RLP: Uint8Array;
  keccak256: (data: Uint8Array) => Uint8Array;
  createTxFromRLP: typeof import('@ethereumjs/tx').createTxFromRLP;
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
        createEVM: evm.createEVM,
        createCustomCommon: common.createCustomCommon,
        Mainnet: common.Mainnet,
        Account: util.Account,
        Address: util.Address,
        KECCAK256_NULL: util.KECCAK256_NULL,
        KECCAK256_RLP: util.KECCAK256_RLP,
        keccak256: sha3.keccak_256,
        createTxFromRLP: tx.createTxFromRLP,
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
