// Errors in words: what went wrong (the library's message, which names the field, the
// expected and the received value) and what to do about it. Library errors carry a
// stable `code`; errors from the node add its own error name (`nodeError`).

const NODE_ADVICE = {
  WALLET_NOT_FOUND: 'No wallet has this address on this node. Check the address, or clear the Address field and press Register to create a wallet.',
  SENDER_UNKNOWN: 'The sending wallet does not exist on this node. Load a registered wallet, or paste a development account from the node banner.',
  SENDER_KEY_MISMATCH: 'The secret key does not sign for the sending address. Paste the key that belongs to this address.',
  POW_TOO_LOW: 'The proof of work is below what the node asks now. Press Connect to read the difficulty again, then Register.',
  REGISTER_KEYS_MISMATCH: 'The registration was signed by other keys than it names. Generate a new key and register again.',
  TIMESTAMP_OUT_OF_WINDOW: "This device's clock is an hour or more away from the node's. Correct the clock, then try again.",
  WRONG_CHAIN: "An address belongs to another chain than this node's. Check the addresses.",
  MEMPOOL_FULL: 'The node holds too many pending transactions. Wait a few seconds and try again.',
  ROUTE_NOT_FOUND: 'This URL answers, but not as a ThePower node API. Check the node URL.',
  TX_TOO_LARGE: 'The transaction is larger than the node accepts. Shorten the message.',
  REQUEST_TOO_LARGE: 'The transaction is larger than the node accepts. Shorten the message.',
};

const TX_REASON_ADVICE = {
  insufficient_fund: 'The wallet holds less than the amount plus the fee. Send less, or fund the wallet first.',
  insufficient_fee: 'The fee was below what the node charges. Press Connect to read the fee settings again and resend.',
  bad_seq: 'Another transaction from this wallet used the same seq first. Send again: the page reads the new seq.',
  bad_timestamp: 'The wallet has a newer transaction than this one. Send again.',
  invalid_timestamp: "This device's clock is an hour or more away from the node's. Correct the clock and send again.",
};

const CODE_ADVICE = {
  NETWORK_ERROR: 'Check the node URL, and that the node runs (npm start starts one on http://127.0.0.1:43280).',
  TIMEOUT: 'The node is slow or makes no blocks. Try again, or look at the node log.',
  BAD_RESPONSE: 'The answer is not what the ThePower API specifies. Check that the node URL points at a node.',
  INSECURE_TRANSPORT: 'Use an https:// node URL: transactions travel over plain HTTP only to this machine.',
  ADDRESS_INVALID: 'Copy the address again from the wallet that owns it: public addresses are two letters and 18 digits.',
  ADDRESS_CHECKSUM: 'A character of the address is wrong. Copy it again from the wallet that owns it.',
  KEY_INVALID: 'A secret key is 64 hex digits (32 bytes). Press Generate key, or paste the key again.',
  BAD_HEX: 'A secret key is 64 hex digits (0-9, a-f). Press Generate key, or paste the key again.',
  WASM_UNAVAILABLE: 'This browser could not start the WebAssembly miner. Use a current Chromium, Firefox or Safari.',
  FEE_UNKNOWN: 'The node has no fee rate for that currency. Pay in a currency the node lists under Fees.',
  MINING_EXHAUSTED: 'No nonce met the difficulty in the searched range. Press Register again: a new timestamp gives a new search.',
};

const sentence = (text) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** A problem with what was typed, already in words: shown as it is. */
export class InputError extends Error {
  name = 'InputError';
}

/** A message for people: the error itself, then what to do. */
export function explain(err) {
  if (err === null || typeof err !== 'object') return `Unexpected error: ${String(err)}`;
  if (err instanceof InputError) return err.message;
  const code = err.code;
  if (typeof code !== 'string') return `Unexpected error: ${sentence(String(err.message ?? err))} Reload the page and try again.`;
  if (code === 'ABORTED') return 'Cancelled.';
  if (code === 'TX_FAILED') {
    const advice = TX_REASON_ADVICE[err.reason];
    return `The node included the transaction with the error "${err.reason}".${advice ? ` ${advice}` : ''}`;
  }
  if (code === 'API_ERROR') {
    const advice = NODE_ADVICE[err.nodeError] ?? (err.status >= 500 ? 'The node failed; look at its log.' : '');
    return `${sentence(err.message)}${advice ? ` ${advice}` : ''}`;
  }
  const advice = CODE_ADVICE[code];
  return `${sentence(err.message)}${advice ? ` ${advice}` : ''}`;
}

/** The words for a failed transaction result read from the node. */
export function explainTxReason(reason) {
  const advice = TX_REASON_ADVICE[reason];
  return `failed with "${reason}".${advice ? ` ${advice}` : ''}`;
}
