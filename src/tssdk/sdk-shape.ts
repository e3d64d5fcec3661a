// The parts of the official SDK (@thepowereco/tssdk 2.1/2.2) the drop-in calls, typed by shape:
// tpkit does not depend on the SDK; a wallet passes its own module or NetworkApi in.

/** An SDK key pair (bitcoinjs ECPair): only its WIF is read. */
export interface TssdkKeyPair {
  toWIF(): string;
}

/** `NetworkApi` of the SDK, after `bootstrap()`. */
export interface TssdkNetwork {
  bootstrap(): Promise<void>;
  /** GET /api/settings as the node answers it. */
  getNodeSettings(): Promise<unknown>;
  /** POST /api/tx/new with `{ tx }` (base64 container); the node's answer. */
  createTransaction(data: { tx: string }): Promise<{ txid?: string } & Record<string, unknown>>;
  /** GET /api/tx/status/{txid}: `{ res: null }` while pending, then `{ ok, res, error? }`. */
  getTransactionStatus(txid: string): Promise<unknown>;
}

/** The SDK module, or the part of it registerCertainChain needs. */
export interface TssdkModule {
  NetworkApi: new (chain: number, isHTTPSNodesOnly?: boolean) => TssdkNetwork;
  CryptoApi: {
    generateSeedPhrase(): string;
    /**
     * SDK 2.1: (phrase, block, group), deriving m/44/31337'/0'/{group}'/{block}'.
     * SDK 2.2: (phrase, derivationPath), its registration passing m/44/31337'/0'/{block}'/{group}'.
     */
    generateKeyPairFromSeedPhrase: ((seedPhrase: string, block: number, group: number) => Promise<TssdkKeyPair>) | ((seedPhrase: string, derivationPath: string) => Promise<TssdkKeyPair>);
  };
}
