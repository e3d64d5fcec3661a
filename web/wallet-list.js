// The wallets of this session: every key generated, typed or pasted, imported from an
// official wallet, or registered here stays in the list until the page closes, so putting
// another key into the fields never loses one. Choosing an entry puts its key and address
// back into the fields. Nothing is stored: closing the page forgets them all.

import { bytesToHex, isValidSecretKey, publicKeyOf, toSecretKeyBytes } from './browser/tpkit.js';
import { $ } from './dom.js';

/** { publicKey, secretKey (hex), address (text or ''), origin } in the order they came. */
const wallets = [];

const ORIGIN_WORDS = { generated: 'generated here', imported: 'imported', registered: 'registered here', development: 'development account' };

/**
 * Adds the key (64 hex digits) if it is not listed yet, and records its address when one is
 * given; returns the entry. An invalid key is ignored (null).
 */
export function rememberKey(secretKeyHex, origin, address = '') {
  const hex = secretKeyHex.trim().replace(/^0x/i, '').toLowerCase();
  if (!isValidSecretKey(hex)) return null;
  const publicKey = bytesToHex(publicKeyOf(toSecretKeyBytes(hex)), true);
  let entry = wallets.find((w) => w.publicKey === publicKey);
  if (!entry) {
    entry = { publicKey, secretKey: hex, address: '', origin };
    wallets.push(entry);
  }
  if (origin === 'registered') entry.origin = origin;
  if (address) entry.address = address;
  render(entry);
  return entry;
}

function label(w) {
  const who = w.address ? w.address : `${w.publicKey.slice(0, 10)}…, no wallet yet`;
  return `${who} (${ORIGIN_WORDS[w.origin] ?? w.origin})`;
}

function render(selected) {
  const list = $('wallet-list');
  const options = wallets.map((w) => {
    const option = document.createElement('option');
    option.value = w.publicKey;
    option.textContent = label(w);
    option.dataset.address = w.address;
    return option;
  });
  list.replaceChildren(...options);
  if (selected) list.value = selected.publicKey;
  $('wallet-list-field').hidden = wallets.length === 0;
  $('wallet-count').textContent = String(wallets.length);
}

/** The listed wallet chosen in the list, or undefined. */
export function chosenWallet() {
  return wallets.find((w) => w.publicKey === $('wallet-list').value);
}

/** Marks the entry whose key is in the field as the chosen one (the list follows the fields). */
export function followFields() {
  const hex = $('secret-key').value.trim().replace(/^0x/i, '').toLowerCase();
  const entry = wallets.find((w) => w.secretKey === hex);
  if (entry) $('wallet-list').value = entry.publicKey;
}

/** Whether a wallet registered in this page would be lost with it: its key exists nowhere else. */
export function holdsRegisteredKey() {
  return wallets.some((w) => w.origin === 'registered');
}
