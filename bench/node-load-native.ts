// Native signing for the load generator: noble signs ~2k/s here, too slow to pre-sign tens of
// thousands of transfers; libsecp256k1 (RFC 6979, low S) does ~30k/s. The BSig layout still
// comes from the library's signBsig, which takes any Signer.

import { createRequire } from 'node:module';
import type { Signer } from '../src/crypto/ecdsa.js';
import { encodeDerSignature } from '../src/crypto/der.js';
import { nativeVerifier } from '../src/node/ledger/native-verifier.js';
import type { DigestVerifier } from '../src/crypto/ecdsa.js';

/** The bench measures the node as deployed: with libsecp256k1 (install secp256k1 to run it). */
export const nativeVerifyDigest: DigestVerifier =
  nativeVerifier() ??
  (() => {
    throw new Error('the load bench needs the secp256k1 package (npm install secp256k1)');
  });

interface Binding {
  publicKeyCreate(secretKey: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(digest: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array };
}

const binding = createRequire(import.meta.url)('secp256k1') as Binding;

function toBigInt(bytes: Uint8Array): bigint {
  return BigInt('0x' + Buffer.from(bytes).toString('hex'));
}

export function nativeSigner(secretKey: Uint8Array): Signer {
  const key = Uint8Array.from(secretKey);
  return {
    publicKey: binding.publicKeyCreate(key, true),
    signDigest(digest: Uint8Array): Uint8Array {
      const { signature } = binding.ecdsaSign(digest, key);
      return encodeDerSignature(toBigInt(signature.subarray(0, 32)), toBigInt(signature.subarray(32)));
    },
  };
}
