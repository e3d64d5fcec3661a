// The published vectors (test/vectors/published.json, stored verbatim with its source), typed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PublishedVectors {
  bsig_hello: {
    secret_key: string;
    public_key: string;
    timestamp_hex: string;
    payload_utf8: string;
    signed_data: string;
    sha256: string;
    der_signature: string;
    bsig: string;
  };
  generic_tx_docs: {
    tx_base64: string;
    body_hex: string;
    decoded_body: DecodedBodyVector;
    digest: string;
    sig_timestamp: number;
  };
  generic_tx_tpnode: {
    secret_key: string;
    public_key: string;
    body_hex: string;
    decoded_body: DecodedBodyVector;
    tx_base64: string;
  };
  register_tx: { body_hex: string; pow_bits: number; tx_base64: string };
  pow: { body_hex: string; sha512_prefix: string; bits: number }[];
  keys_hash: { public_keys: string[]; h: string };
  public_keys: { secret_key: string; public_key: string }[];
  pem: { public_key: string; pem: string };
  addresses: [string, string][];
  invalid_addresses: string[];
  txids: { txid: string; chain: number; height: number; time_ns: string }[];
  varints: [number, string][];
  fee: { settings: { base: number; baseextra: number; kb: number }; body_len: number; cost: number };
}

export interface DecodedBodyVector {
  k: number;
  f: string;
  to: string;
  s: number;
  t: number;
  p: [number, string, number][];
  e: Record<string, string>;
}

const file = fileURLToPath(new URL('../../../test/vectors/published.json', import.meta.url));

export const vectors: PublishedVectors = JSON.parse(readFileSync(file, 'utf8'));
