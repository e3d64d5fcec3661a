// Seed phrases as the official ThePower wallets use them: BIP-39 English mnemonics (no
// BIP-39 passphrase), the key derived by BIP-32 at m/44/31337'/0'/{group}'/{block}'. The
// first step, 44, is not hardened: that is what the SDK's derivation path says
// (`m/44` + `/31337'/0'/…`), and the keys must be the SDK's to open the same wallets.

import { HDKey } from '@scure/bip32';
import { generateMnemonic as bip39Generate, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { addressParts, parseAddress } from '../codec/address.js';
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

/** The BIP-32 path of the key for a block and group: m/44/31337'/0'/{group}'/{block}'. */
export function mnemonicPath(place: MnemonicPlace): string {
  const { block, group } = placeOf(place);
  return `m/44/31337'/0'/${group}'/${block}'`;
}

/**
 * The 32-byte secret key the official wallets derive from a phrase for a block and group
 * (`{ block, group }`, or `{ address }` of a registered wallet).
 */
export function mnemonicToSecretKey(mnemonic: string, place: MnemonicPlace): Uint8Array {
  const path = mnemonicPath(place);
  const phrase = normalizeMnemonic(mnemonic);
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase));
  const key = root.derive(path).privateKey;
  root.wipePrivateData();
  if (!key) throw new ArgumentError('BIP-32 derivation gave no secret key');
  return Uint8Array.from(key);
}
