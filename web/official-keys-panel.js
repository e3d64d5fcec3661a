// Keys from the official ThePower wallets: a seed phrase or an official export file becomes
// the key (and address) in the wallet fields; the key in the fields is written out as an
// official export file. Everything happens in this page; nothing is sent but the reads of
// the node's allocation block. The key functions live in the browser build's own keys file
// (tpkit/browser/keys), fetched the first time this section is used, not at page load.

import { bytesToHex } from './browser/tpkit.js';
import { $, clearError, setStatus, showError } from './dom.js';
import { explain, InputError } from './explain.js';
import { needClient } from './state.js';
import { readAddress, readSecretKey } from './wallet-panel.js';
import { rememberKey } from './wallet-list.js';

const ADVICE = {
  MNEMONIC_LENGTH: 'A seed phrase has 12, 15, 18, 21 or 24 words.',
  MNEMONIC_WORD: 'Check that word against the phrase you wrote down.',
  MNEMONIC_CHECKSUM: 'Every word is a BIP-39 word, but one is wrong or two are swapped: compare with the written phrase.',
  WALLET_PASSPHRASE: 'Type the passphrase you chose when the wallet exported the file.',
  WALLET_FILE_CORRUPT: 'The file is damaged: export it from the wallet again.',
  WALLET_FILE_UNKNOWN: 'Choose the file the official wallet wrote with "Export".',
  KEY_CURVE: 'ThePower keys are secp256k1: this file is from another kind of wallet.',
};

let keysModule;
/** The browser build's keys of the official wallets, loaded once on first use. */
const officialKeys = () => (keysModule ??= import('./browser/tpkit-keys.js'));

const say = (err) => (err?.code in ADVICE ? `${err.message}. ${ADVICE[err.code]}` : explain(err));

/**
 * Puts a key (and address) into the wallet fields as if typed, so every panel that listens
 * sees it, and keeps it in the session's wallet list with its address.
 */
function useKey(secretKey, address) {
  $('secret-key').value = bytesToHex(secretKey);
  $('address').value = address ?? '';
  rememberKey(bytesToHex(secretKey), 'imported', address ?? '');
  for (const id of ['secret-key', 'address']) $(id).dispatchEvent(new Event('input', { bubbles: true }));
  $('wallet-info').hidden = true;
  clearError('wallet-error');
}

/** The seed phrase's key, for the address typed beside it or else the node's allocation block. */
export async function importMnemonic() {
  clearError('official-error');
  const phrase = $('mnemonic').value;
  try {
    const { mnemonicPath, mnemonicToSecretKey } = await officialKeys();
    if (phrase.trim() === '') throw new InputError('Seed phrase: the field is empty. Type the words, separated by spaces.');
    let place;
    let address;
    let where;
    if ($('mnemonic-address').value.trim() !== '') {
      address = readAddress('mnemonic-address', 'Wallet address');
      place = { address };
      where = `wallet ${address}: press Load wallet to see it`;
    } else {
      const alloc = await needClient().getSettings('current.allocblock');
      place = { block: alloc.block, group: alloc.group };
      where = "the node's allocation block, for a new wallet: press Register";
    }
    useKey(mnemonicToSecretKey(phrase, place), address);
    $('mnemonic').value = '';
    setStatus('official-status', `Key derived at ${mnemonicPath(place)} for ${where}.`, true);
  } catch (err) {
    setStatus('official-status', '');
    showError('official-error', say(err));
  }
}

/** The key and address of the chosen export file, opened with the passphrase typed. */
export async function importExportFile() {
  clearError('official-error');
  try {
    const { readWalletExport } = await officialKeys();
    const file = $('export-file').files?.[0];
    if (!file) throw new InputError('Export file: choose the file the official wallet exported.');
    const opened = readWalletExport(new Uint8Array(await file.arrayBuffer()), $('export-passphrase').value);
    useKey(opened.secretKey, opened.address);
    $('export-passphrase').value = '';
    const hint = opened.hint ? ` (its hint: "${opened.hint}")` : '';
    setStatus('official-status', `Imported wallet ${opened.address} from ${file.name}${hint}: press Load wallet.`, true);
  } catch (err) {
    setStatus('official-status', '');
    showError('official-error', say(err));
  }
}

const MIN_EXPORT_PASSPHRASE = 12;

/** Downloads the key and address in the fields as an official export file. */
export async function downloadExport() {
  clearError('official-error');
  try {
    const { writeWalletExport } = await officialKeys();
    const secretKey = readSecretKey();
    const address = readAddress('address', 'Address');
    const passphrase = $('new-export-passphrase').value;
    if (passphrase.length < MIN_EXPORT_PASSPHRASE) {
      throw new InputError(`Export passphrase: at least ${MIN_EXPORT_PASSPHRASE} characters. The format costs an attacker one MD5 per guess.`);
    }
    const text = writeWalletExport({ secretKey, address, passphrase, hint: $('new-export-hint').value });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' }));
    link.download = `thepower-wallet-${address}.pem`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
    $('new-export-passphrase').value = '';
    setStatus('official-status', `Export file for ${address} downloaded. Keep it private and delete it once the wallet has imported it.`, true);
  } catch (err) {
    setStatus('official-status', '');
    showError('official-error', say(err));
  }
}
