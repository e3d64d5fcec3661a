// Seed phrases as the official ThePower wallets use them: BIP-39 English mnemonics (no
// BIP-39 passphrase), the key derived by BIP-32 at m/44/31337'/0'/{group}'/{block}'. The
// first step, 44, is not hardened: that is what the SDK's derivation path says
// (`m/44` + `/31337'/0'/…`), and the keys must be the SDK's to open the same wallets.
//
// The SDK has used two orders for the last two steps. Its seed-phrase login
// (generateKeyPairFromSeedPhraseAndAddress, SDK 2.1 and 2.2) and its 2.1 registration derive at
// …/{group}'/{block}' ("group-block"); its 2.2 registration (WalletApi.registerCertainChain)
// derives at …/{block}'/{group}' ("block-group"). A wallet made by SDK 2.2 on a chain whose
// block and group differ holds the block-group key, so an import tries both orders against the
// wallet's public key (findMnemonicKey).

import { HDKey } from '@scure/bip32';
import { generateMnemonic as bip39Generate, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { equalBytes } from '../bytes.js';
import { addressParts, parseAddress } from '../codec/address.js';
import { normalizePublicKey, publicKeyOf } from '../crypto/keys.js';
import { ArgumentError, DecodeError, describeValue } from '../errors.js';

/** Word counts BIP-39 defines (128 to 256 bits of entropy). */
const WORD_COUNTS = [12, 15, 18, 21, 24];
const STRENGTH_BY_WORDS: Record<number, number> = { 12: 128, 15: 160, 18: 192, 21: 224, 24: 256 };

/** Where a key sits: the wallet's block and group (from its address), or the chain's allocation block before registration. */
export type MnemonicPlace = { block: number; group: number } | { address: string | Uint8Array };

/** A new English BIP-39 phrase from the platform CSPRNG: 12 words (as the official wallets make) or 15..24. */
export function generateMnemonic(words = 12): string {
  const strength = STRENGTH_BY_WORDS[words];
  if (strength === undefined) throw new ArgumentError(`"words" expected one of ${WORD_COUNTS.join(', ')}, got ${String(words)}`);
  return bip39Generate(wordlist, strength);
}

/**
 * The phrase in the form its seed is computed from: NFKD, lower case, single spaces. The
 * official wallets write phrases in that form already; a pasted phrase may carry a capital
 * or a line break. Throws DecodeError MNEMONIC_LENGTH, MNEMONIC_WORD or MNEMONIC_CHECKSUM.
 */
export function normalizeMnemonic(mnemonic: string): string {
  if (typeof mnemonic !== 'string') throw new ArgumentError(`"mnemonic" expected a string, got ${describeValue(mnemonic)}`);
  // Bounded before any work: the longest English phrase is 24 words of at most 8 letters.
  if (mnemonic.length > 1000) throw new DecodeError('MNEMONIC_LENGTH', 'The seed phrase is too long', { details: `${mnemonic.length} characters` });
  const words = mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!WORD_COUNTS.includes(words.length)) {
    throw new DecodeError('MNEMONIC_LENGTH', `The seed phrase has ${words.length} words`, { details: `expected ${WORD_COUNTS.join(', ')}` });
  }
  words.forEach((word, i) => {
    if (!wordlist.includes(word)) {
      // The position, never the word: a phrase is a secret even when mistyped.
      throw new DecodeError('MNEMONIC_WORD', `Word ${i + 1} of the seed phrase is not in the BIP-39 English list`, { details: 'check its spelling' });
    }
  });
  const phrase = words.join(' ');
  if (!validateMnemonic(phrase, wordlist)) {
    throw new DecodeError('MNEMONIC_CHECKSUM', "The seed phrase's checksum does not match", { details: 'a word is wrong (each is in the list) or the words are out of order' });
  }
  return phrase;
}

/** True for a valid English BIP-39 phrase (after normalizeMnemonic's clean-up); never throws. */
export function isValidMnemonic(mnemonic: unknown): boolean {
  try {
    normalizeMnemonic(mnemonic as string);
    return true;
  } catch {
    return false;
  }
}

const HARDENED_LIMIT = 2 ** 31;

function placeOf(place: MnemonicPlace): { block: number; group: number } {
  if (place === null || typeof place !== 'object') throw new ArgumentError(`"place" expected { block, group } or { address }, got ${describeValue(place)}`);
  if ('address' in place) {
    const { block, group } = addressParts(parseAddress(place.address, 'address')) as { block?: number; group?: number };
    if (block === undefined || group === undefined) throw new ArgumentError('"address" is a public address; seed-phrase keys belong to private (wallet) addresses');
    return { block, group };
  }
  for (const name of ['block', 'group'] as const) {
    const value = place[name];
    if (!Number.isInteger(value) || value < 0 || value >= HARDENED_LIMIT) {
      throw new ArgumentError(`"${name}" expected an integer 0..${HARDENED_LIMIT - 1}, got ${String(value)}`);
    }
  }
  return { block: place.block, group: place.group };
}

/**
 * The order of the last two path steps: "group-block" (the SDK's seed-phrase login and its 2.1
 * registration) or "block-group" (the SDK 2.2 registration).
 */
export type MnemonicOrder = 'group-block' | 'block-group';

export const MNEMONIC_ORDERS: readonly MnemonicOrder[] = ['group-block', 'block-group'];

function orderOf(order: unknown): MnemonicOrder {
  if (order !== 'group-block' && order !== 'block-group') throw new ArgumentError(`"order" expected "group-block" or "block-group", got ${describeValue(order)}`);
  return order;
}

/** The BIP-32 path of the key for a block and group: m/44/31337'/0'/{group}'/{block}', or {block}'/{group}' for "block-group". */
export function mnemonicPath(place: MnemonicPlace, order: MnemonicOrder = 'group-block'): string {
  const { block, group } = placeOf(place);
  return orderOf(order) === 'group-block' ? `m/44/31337'/0'/${group}'/${block}'` : `m/44/31337'/0'/${block}'/${group}'`;
}

/** The secret key at each path, from one seed (the seed is the costly step: 2048 rounds of PBKDF2). */
function derive(mnemonic: string, paths: readonly string[]): Uint8Array[] {
  const phrase = normalizeMnemonic(mnemonic);
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase));
  try {
    return paths.map((path) => {
      const key = root.derive(path).privateKey;
      if (!key) throw new ArgumentError('BIP-32 derivation gave no secret key');
      return Uint8Array.from(key);
    });
  } finally {
    root.wipePrivateData();
  }
}

/**
 * The 32-byte secret key the official wallets derive from a phrase for a block and group
 * (`{ block, group }`, or `{ address }` of a registered wallet), in the seed-phrase login's
 * order unless `order` says otherwise.
 */
export function mnemonicToSecretKey(mnemonic: string, place: MnemonicPlace, order: MnemonicOrder = 'group-block'): Uint8Array {
  return derive(mnemonic, [mnemonicPath(place, order)])[0];
}

/** A phrase's key for a wallet, and the order and path it was found at. */
export interface FoundMnemonicKey {
  secretKey: Uint8Array;
  order: MnemonicOrder;
  path: string;
}

/**
 * The key of the wallet whose public key is `publicKey` (33 or 65 bytes), tried in both orders:
 * the seed-phrase login's first, then the SDK 2.2 registration's. Undefined when neither gives
 * it (another phrase, or another place).
 */
export function findMnemonicKey(mnemonic: string, place: MnemonicPlace, publicKey: Uint8Array): FoundMnemonicKey | undefined {
  const wanted = normalizePublicKey(publicKey);
  const paths = MNEMONIC_ORDERS.map((order) => mnemonicPath(place, order));
  const keys = derive(mnemonic, paths);
  const i = keys.findIndex((key) => equalBytes(publicKeyOf(key), wanted));
  return i < 0 ? undefined : { secretKey: keys[i], order: MNEMONIC_ORDERS[i], path: paths[i] };
}
