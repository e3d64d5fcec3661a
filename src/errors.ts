// Every error tpkit throws is a TpkitError with a stable `code`. Callers narrow by
// class (`instanceof DecodeError`) or by `code`; messages may change, codes do not.
// docs/reference/errors.md is this file's ERROR_CODES, in the same order (scripts/gen-docs.mjs).

export const ERROR_CODES = {
  // arguments passed to a library function
  INVALID_ARGUMENT: 'An argument has the wrong type, length or range.',
  // text and byte encodings
  BAD_HEX: 'Text is not valid hexadecimal.',
  BAD_BASE64: 'Text is not valid base64.',
  BAD_INPUT_ENCODING: 'Input is neither raw bytes, hex nor base64.',
  // MessagePack
  MSGPACK_TRUNCATED: 'MessagePack data ends before the value does, or declares a length longer than the bytes left.',
  MSGPACK_INVALID: 'MessagePack data holds a byte that starts no valid value.',
  MSGPACK_TRAILING: 'Bytes remain after the MessagePack value.',
  MSGPACK_LIMIT: 'MessagePack value is nested too deeply or holds too many values.',
  MSGPACK_UNSUPPORTED: 'A value cannot be represented in MessagePack by this encoder.',
  MSGPACK_DUPLICATE_KEY: 'A MessagePack map holds the same key twice.',
  // transaction container
  TX_NOT_MAP: 'The transaction container is not a MessagePack map.',
  TX_MISSING_KEY: 'The transaction container lacks a mandatory key.',
  TX_BAD_FIELD: 'A transaction container key has the wrong type.',
  TX_BAD_VERSION: 'The transaction container version is not 2.',
  // transaction bodies
  BODY_NOT_MAP: 'The transaction body is not a MessagePack map.',
  BODY_MISSING_FIELD: 'The transaction body lacks a mandatory field.',
  BODY_BAD_FIELD: 'A transaction body field has the wrong type, length or value.',
  BODY_FLOAT_AMOUNT: 'An amount or integer field is a float.',
  BODY_BAD_PAYLOAD: 'A payload item is not a [purpose, currency, amount] array.',
  BODY_UNKNOWN_KIND: 'The body kind number is not a known kind.',
  // BSig and signatures
  BSIG_MALFORMED: 'BSig TLV data is truncated or has a bad length.',
  BSIG_MISSING_FIELD: 'BSig lacks its signature or public key.',
  BSIG_BAD_DER: 'The signature is not strict DER.',
  SIG_INVALID: 'A signature does not verify.',
  // keys
  KEY_INVALID: 'A secret or public key is not a valid secp256k1 key.',
  PEM_INVALID: 'PEM text is not a secp256k1 public key.',
  KEY_CURVE: 'A key is on another curve than secp256k1.',
  // keys from the official wallets: seed phrases, export files, WIF
  MNEMONIC_LENGTH: 'A seed phrase does not have 12, 15, 18, 21 or 24 words.',
  MNEMONIC_WORD: 'A seed phrase holds a word that is not in the BIP-39 English list.',
  MNEMONIC_CHECKSUM: "A seed phrase's checksum does not match: a word is wrong or the words are out of order.",
  WIF_INVALID: 'Text is not a compressed secp256k1 WIF secret key (base58check, version 0x80).',
  WALLET_FILE_UNKNOWN: 'The file is not a wallet export of the official ThePower wallets.',
  WALLET_FILE_CORRUPT: 'A wallet export file is damaged: a block is missing, malformed, or does not decrypt while the other does.',
  WALLET_PASSPHRASE: 'The passphrase does not open the wallet export file.',
  WALLET_KEY_MISMATCH: 'The key is not the key the node records for that wallet address.',
  // addresses and transaction ids
  ADDRESS_INVALID: 'Text or bytes are not a valid address.',
  ADDRESS_CHECKSUM: 'The address checksum does not match.',
  TXID_INVALID: 'Text is not a valid transaction id.',
  // local node: requests, submission checks and lookups (HTTP status and number: src/node/api-errors.ts)
  NOT_JSON: 'The request body is not JSON.',
  MISSING_TX: 'The request has no "tx" string.',
  REQUEST_TOO_LARGE: 'The request body exceeds the size limit.',
  TX_TOO_LARGE: 'The transaction container exceeds the size limit.',
  SIG_MISSING: 'The transaction carries no signature.',
  TOO_MANY_SIGNATURES: 'The transaction carries more signatures than the node accepts.',
  REGISTER_KEYS_MISMATCH: 'The register body "h" is not the hash of the keys that signed it.',
  POW_TOO_LOW: 'The register body proof of work is below the difficulty.',
  SENDER_UNKNOWN: 'The sender wallet does not exist on this chain.',
  SENDER_KEY_MISMATCH: 'No valid signature is by the sender wallet key.',
  TIMESTAMP_OUT_OF_WINDOW: 'The transaction timestamp is an hour or more away from the node clock.',
  KIND_UNSUPPORTED: 'The node does not process this transaction kind.',
  WRONG_CHAIN: 'An address belongs to another chain.',
  ETH_TX_REFUSED:
    "An Ethereum transaction is refused at submission, with geth's text: nonce too low, already known, (replacement) transaction underpriced, insufficient funds, intrinsic gas too low, exceeds block gas limit.",
  MEMPOOL_FULL: 'The node holds as many pending transactions as it allows: in all, in bytes, or from that sender.',
  STORE_UNAVAILABLE: 'The node could not write the transaction to its store, so it did not accept it.',
  NODE_SHUTTING_DOWN: 'The node is shutting down: it accepts no transaction, block or development operation any more.',
  WALLET_NOT_FOUND: 'No wallet has that address.',
  BLOCK_NOT_FOUND: 'No block has that hash or height.',
  TX_NOT_FOUND: 'The node has no transaction with that id: never accepted, or mistyped.',
  ROUTE_NOT_FOUND: 'No endpoint has that path.',
  NOT_IMPLEMENTED: 'The endpoint exists on the reference node but runs smart contracts, which this node does not.',
  METHOD_NOT_ALLOWED: 'The endpoint does not answer that HTTP method.',
  BAD_REQUEST_PARAM: 'A path or query parameter is malformed.',
  HTTP_MALFORMED: 'The request is not valid HTTP/1.1 (request line, headers, Host) or uses a method the node never serves.',
  REQUEST_ABORTED: 'The client closed the connection before the request body was complete.',
  REQUEST_TIMEOUT: 'The request headers or body did not arrive in time.',
  EVM_TIMEOUT: "A contract view ran past its time bound (limits.viewTimeoutMs, as geth's --rpc.evmtimeout) and was stopped.",
  EVM_BUSY: 'The node holds as many contract views waiting as it allows (limits.viewQueue): retry later.',
  NODE_INTERNAL: 'The node failed unexpectedly while handling the request.',
  SUBSCRIPTION_INVALID: 'A live-update subscription message is malformed or names nothing the node knows.',
  SUBSCRIPTION_LIMIT: 'The connection holds as many subscriptions as the node allows.',
  DEV_API_DISABLED: 'The development endpoints are switched off (--no-dev-api, or the node listens beyond loopback without --dev-api).',
  SNAPSHOT_NOT_FOUND: 'The node has no snapshot with that id or name (reverting drops the snapshots taken after the target).',
  HOST_NOT_ALLOWED: 'The Host header names neither this machine nor an --allow-host entry (DNS rebinding is refused).',
  ORIGIN_NOT_ALLOWED: 'A web page from an origin the node does not allow tried to change state or open the live stream.',
  CONTENT_TYPE_UNSUPPORTED: 'A development endpoint was sent a body that is not Content-Type: application/json.',
  WS_CONNECTION_LIMIT: 'The node holds as many live-stream connections as it allows, in all or from that address.',
  PORT_IN_USE: 'Another process already listens on the port the node was asked to use.',
  DEPENDENCY_MISSING: 'A package the local node needs for this setting is not installed (classic-level for a data directory).',
  CONFIG_INVALID: 'The node configuration is invalid.',
  STORE_DAMAGED: 'The data directory holds a damaged chain: the node does not start on it (tpkit node --check).',
  DATA_DIR_UNUSABLE: 'The data directory is unusable: no space, no permission, read-only, a file in the way, or another node holding it.',
  STORE_UNREADABLE: "tpkit node --repair finds nothing to keep: no store in the data directory, a store that does not open even after LevelDB's repair, or a damaged genesis block.",
  REPAIR_NOT_NEEDED: 'tpkit node --repair finds the chain sound: nothing to repair, nothing changed (exit code 0).',
  // mining
  ABORTED: 'The operation was aborted by its signal.',
  WASM_UNAVAILABLE: 'WebAssembly could not be instantiated.',
  FILE_ORIGIN: "The page was opened from file://, where browsers refuse the miner's module worker and kernel files: serve it over http(s).",
  MINING_EXHAUSTED: 'No nonce in the searched range reached the difficulty.',
  MINING_BAD_RESULT: 'A mining kernel returned a nonce whose SHA-512 does not reach the difficulty.',
  // client of a node's HTTP API (src/client)
  API_ERROR: 'The node answered the request with an error.',
  NETWORK_ERROR: 'The node could not be reached.',
  TIMEOUT: 'The node did not answer, or the transaction was not included, in time.',
  BAD_RESPONSE: "The node's answer is not the JSON the API specifies.",
  INSECURE_TRANSPORT: 'A transaction would travel over plain HTTP to a host that is not this machine.',
  TX_FAILED: 'The transaction was included in a block with an error result.',
  FEE_UNKNOWN: "The node's settings give no fee rate for the fee currency.",
  RESPONSE_TOO_LARGE: "The node's answer exceeds maxResponseBytes.",
  REDIRECT_REFUSED: 'The node answered a POST with a redirect, which is not followed.',
  DIFFICULTY_TOO_HIGH: 'The node asks for more proof of work than maxDifficulty.',
  FEE_TOO_HIGH: "The fee from the node's settings exceeds maxFee.",
  // key files (tpkit CLI)
  KEYFILE_INVALID: 'A key file is malformed, tampered with, or uses unsupported parameters.',
  KEYFILE_PASSPHRASE: 'The passphrase does not open the key file.',
  PRECHECK_FAILED: 'A check before signing found the transaction would fail, or would go where it was likely not meant to.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface TpkitErrorOptions {
  /** What exactly was wrong, for logs and CLI output. */
  details?: string;
  /** The body or container field the error is about, when there is one. */
  field?: string;
  cause?: unknown;
}

export class TpkitError extends Error {
  override name = 'TpkitError';
  readonly code: ErrorCode;
  readonly shortMessage: string;
  readonly details?: string;
  readonly field?: string;

  constructor(code: ErrorCode, shortMessage: string, options: TpkitErrorOptions = {}) {
    const full = options.details ? `${shortMessage}: ${options.details}` : shortMessage;
    super(full, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details;
    this.field = options.field;
  }
}

/** A library function got an argument of the wrong type, length or range. */
export class ArgumentError extends TpkitError {
  override name = 'ArgumentError';
  constructor(message: string, options: TpkitErrorOptions = {}) {
    super('INVALID_ARGUMENT', message, options);
  }
}

/** Bytes or text could not be decoded: hex, base64, MessagePack, container, body, BSig, txid. */
export class DecodeError extends TpkitError {
  override name = 'DecodeError';
}

/** Something decoded fine but breaks a protocol rule (a field's type, an address checksum). */
export class ValidationError extends TpkitError {
  override name = 'ValidationError';
}

/** A key or a signature is not valid. */
export class CryptoError extends TpkitError {
  override name = 'CryptoError';
}

/** An operation was stopped by its AbortSignal. */
export class AbortError extends TpkitError {
  override name = 'AbortError';
  constructor(details = 'aborted', options: TpkitErrorOptions = {}) {
    super('ABORTED', 'Operation aborted', { details, ...options });
  }
}

/** A short printable description of a value for error details: its type and size, never its secret content. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (typeof value === 'string') return `string of ${value.length} chars`;
  return typeof value;
}
