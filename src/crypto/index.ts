// The public crypto API: keys, PEM, keys hash, DER, BSig and transaction signatures.

export { sha256, sha512 } from '../hash.js';
export { keysHash } from '../codec/keys-hash.js';
export {
  generateSecretKey,
  isValidPublicKey,
  isValidSecretKey,
  normalizePublicKey,
  publicKeyOf,
  toSecretKeyBytes,
  PUBLIC_KEY_LENGTH,
  SECRET_KEY_LENGTH,
  UNCOMPRESSED_PUBLIC_KEY_LENGTH,
  type PublicKeyInput,
  type SecretKeyInput,
} from './keys.js';
export { pemToPublicKey, publicKeyToPem, publicKeyToSpki, spkiToPublicKey } from './pem.js';
export { type DerSignature, encodeDerSignature, encodeDerSignatureBytes, parseDerSignature } from './der.js';
export { createSigner, type DigestVerifier, nobleVerifyDigest, signDigest, type Signer } from './ecdsa.js';
export { BSIG_TAG, type BsigField, type BsigFieldName, bsigTagName, type DecodedBsig, decodeBsig, encodeBsig } from './bsig-tlv.js';
export { type BsigFieldInput, type BsigInvalidReason, type BsigVerification, bsigDigest, signBsig, type SignBsigOptions, verifyBsig, verifyDecodedBsig, type VerifyOptions } from './bsig.js';
export { addSignature, signTx, type SigningKey, type SignTxOptions, type TxVerification, verifyTx } from './sign-tx.js';
