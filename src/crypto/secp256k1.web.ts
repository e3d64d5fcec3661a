// secp256k1.ts for the browser build: @noble/secp256k1, noble's single-curve library, with
// the functions and options tpkit calls named as @noble/curves names them. It weighs 7 KB
// min+gzip where @noble/curves' secp256k1 weighs 16 KB; signing is RFC 6979 through the
// same @noble/hashes HMAC-SHA-256. test/secp256k1-web.test.ts checks it against @noble/curves.

import { hashes, getPublicKey, Point, sign, utils, verify } from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

// Synchronous sign and verify need these (the library's own are WebCrypto, so async only).
hashes.sha256 = sha256;
hashes.hmacSha256 = (key, message) => hmac(sha256, key, message);

export const secp256k1 = { sign, verify, getPublicKey, utils, Point };
export const CURVE_ORDER: bigint = Point.CURVE().n;
