// What both entries export: errors, byte helpers, codec, crypto, keys of the official
// wallets, proof of work and the client. src/index.ts adds Node's worker pool,
// src/browser.ts the Web Worker pool.

export {
  ERROR_CODES, type ErrorCode, type TpkitErrorOptions,
  TpkitError, ArgumentError, DecodeError, ValidationError, CryptoError, AbortError,
} from './errors.js';
export {
  base64ToBytes, bytesFromInput, bytesToBase64, bytesToHex, compareBytes, concatBytes, equalBytes, hexToBytes,
} from './bytes.js';
export * from './codec/index.js';
export * from './crypto/index.js';
export { signTx, verifyTx, addSignature, type SigningKey, type SignTxOptions, type TxVerification } from './crypto/sign-tx.js';
export * from './keys/index.js';
export * from './pow/index.js';
export * from './client/index.js';
