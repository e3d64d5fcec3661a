// The hashes the protocol uses: SHA-256 (keys hash, BSig digest) and SHA-512 (proof of work).
// Pure JS from @noble/hashes so the core runs unchanged in browsers and workers; SHA-256
// moves to the WASM module once a caller has loaded it (src/wasm/hashes.ts).

import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { wasmHashes } from './wasm/hashes.js';

export function sha256(data: Uint8Array): Uint8Array {
  const wasm = wasmHashes();
  return wasm ? wasm.sha256(data) : nobleSha256(data);
}

export function sha512(data: Uint8Array): Uint8Array {
  return nobleSha512(data);
}
