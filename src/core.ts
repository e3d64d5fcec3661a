// What both entries export: errors, byte helpers, codec, crypto, proof of work and the
// client. src/index.ts adds the keys of the official wallets and Node's worker pool;
// src/browser.ts the Web Worker pool (the browser build carries the keys of the official
// wallets in their own entry, src/browser-keys.ts, since few pages need them).

export { ERROR_CODES, type ErrorCode, type TpkitErrorOptions, TpkitError, ArgumentError, DecodeError, ValidationError, CryptoError, AbortError } from './errors.js';
export { base64ToBytes, bytesFromInput, bytesToBase64, bytesToHex, compareBytes, concatBytes, equalBytes, hexToBytes } from './bytes.js';
export * from './codec/index.js';
export * from './crypto/index.js';
export { signTx, verifyTx, addSignature, type SigningKey, type SignTxOptions, type TxVerification } from './crypto/sign-tx.js';
export * from './pow/index.js';
export * from './client/index.js';
