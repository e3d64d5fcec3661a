// The secp256k1 operations tpkit uses (sign, verify, public keys, key checks), behind one
// module: @noble/curves here. The browser build swaps in secp256k1.web.ts (@noble/secp256k1),
// the same functions with the same options in about a third of the bytes (scripts/build-browser.mjs).

import { secp256k1 } from '@noble/curves/secp256k1.js';

export { secp256k1 };
/** n, the order of the group (a literal: reading it from the curve would evaluate @noble/curves at import). */
export const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
