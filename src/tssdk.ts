// tpkit/tssdk: proof of work for wallets on the official SDK (@thepowereco/tssdk), and only
// the miner and the signer behind it: registerCertainChain in place of
// WalletApi.registerCertainChain, composeMinedRegisterTX in place of composeRegisterTX.

export { registerCertainChain, type RegisterCertainChainArgs, type RegisteredChainWallet } from './tssdk/register-certain-chain.js';
export { composeMinedRegisterTX, registerDifficulty, DEFAULT_MAX_DIFFICULTY, type ComposeRegisterOptions, type MinedRegisterTx, type ProofOfWorkOptions } from './tssdk/compose-register.js';
export type { TssdkKeyPair, TssdkModule, TssdkNetwork } from './tssdk/sdk-shape.js';
export type { MinerPool, MiningProgress } from './pow/search.js';
export { TpkitError, AbortError } from './errors.js';
