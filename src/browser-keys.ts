// tpkit for browsers, the keys of the official wallets (package export "./browser/keys",
// bundled to dist/browser/tpkit-keys.js): seed phrases, the wallet export file and WIF, the
// same functions the package root exports. Their own entry because they weigh more than the
// rest of the browser build's signing code (the BIP-39 word list, BIP-32, AES-CBC, MD5) and few
// pages need them; the code both entries use is one shared chunk, so errors thrown here are
// instances of tpkit/browser's classes.

export * from './keys/index.js';
