// Signature checks through libsecp256k1 (the `secp256k1` package's prebuilt binding): about
// 20k verifies/s per core here against under 1k for @noble/curves, and verification is what
// bounds the node's throughput. It plugs into the crypto module's verifyDecodedBsig as its
// DigestVerifier, so strict DER, the r/s range and the digest stay defined in one place.
//
// libsecp256k1 rejects high-S signatures while the reference node (OpenSSL) accepts them, so
// S is normalized to the lower half first; (r, s) and (r, n - s) are equally valid ECDSA.

import { createRequire } from 'node:module';
import { nobleVerifyDigest, type DigestVerifier } from '../../crypto/ecdsa.js';

interface Secp256k1Binding {
  signatureNormalize(signature: Uint8Array): Uint8Array;
  ecdsaVerify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean;
}

// `secp256k1` is an optional peer dependency: a wallet that only embeds the library never
// installs a native module. Without it the node verifies with @noble/curves, correct but
// about 20 times slower, and says so at start. The binding is required directly: the
// package's main entry would fall back to the pure-JS `elliptic` without a word.
function loadBinding(): Secp256k1Binding | undefined {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as Secp256k1Binding;
  } catch {
    return undefined;
  }
}

// Loaded on first use, not at import: a verification thread terminated while it still starts
// (a node closed at once) would otherwise be inside the binding's set-up, and a native add-on
// that meets a terminating thread there aborts the whole process.
let native: DigestVerifier | null | undefined;

/** libsecp256k1, when the `secp256k1` package and its prebuilt binding are installed. */
export function nativeVerifier(): DigestVerifier | undefined {
  if (native === undefined) {
    const binding = loadBinding();
    native = binding
      ? (signature, digest, publicKey) => {
          const lowS = signature.slice();
          binding.signatureNormalize(lowS);
          return binding.ecdsaVerify(lowS, digest, publicKey);
        }
      : null;
  }
  return native ?? undefined;
}

/** What the node verifies with: libsecp256k1 if it loads, else @noble/curves. */
export const nodeVerifyDigest: DigestVerifier = (signature, digest, publicKey) => (nativeVerifier() ?? nobleVerifyDigest)(signature, digest, publicKey);

/** The name of what nodeVerifyDigest runs, for the start-up line and the docs. */
export const verifierBackend = (): 'libsecp256k1' | '@noble/curves' => (nativeVerifier() ? 'libsecp256k1' : '@noble/curves');
