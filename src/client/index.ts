// The client side of the node API: requests, typed answers and the two wallet flows.
// Browser-safe: it needs only fetch.

export { createClient, type CallOptions, type ClientOptions, type ContractView, type ContractViewRequest, type TpkitClient, type WaitOptions } from './client.js';
export { ApiError, NetworkError, NotANodeError, TimeoutError, TxFailedError, UnknownTxError, type ApiErrorInfo } from './client-errors.js';
export type { NodeStatus, TxStatus, WalletInfo } from './responses.js';
export type { AddressChange, BlockSummary, ChainReset, WatchOptions, WebSocketFactory } from './watch.js';
export type { DevAccountInfo, DevApi, MinedBlock } from './dev.js';
export type { ChainMoved, DevControlApi, Fault, FaultRuleSpec, Snapshot } from './dev-control.js';
export { feeRates, chooseFeeCurrency, autoFee } from './fee.js';
export { DifficultyTooHighError, registerWallet, type RegisterStage, type RegisterWalletOptions, type RegisteredWallet } from './register-wallet.js';
export { transfer, type TransferOptions, type TransferPlan, type TransferResult, type TransferStage } from './transfer.js';
