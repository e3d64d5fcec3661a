// Section 2, the wallet: the secret key and address fields, their public key, the choice
// between Register and Load wallet, and the balance of the loaded wallet.

import { addressFromText, addressToText, bytesToHex, generateSecretKey, publicKeyOf, toSecretKeyBytes } from './browser/tpkit.js';
import { $, clearError, setStatus, showError } from './dom.js';
import { explain, InputError } from './explain.js';
import { formatCount } from './format.js';
import { needClient, state } from './state.js';
import { chosenWallet, followFields, rememberKey } from './wallet-list.js';

/** The secret key in the field, checked; throws an error whose message names the field. */
export function readSecretKey() {
  const text = $('secret-key').value.trim().replace(/^0x/i, '');
  if (text === '') throw new InputError('Secret key: the field is empty. Press Generate key, or paste a key.');
  try {
    return toSecretKeyBytes(text);
  } catch (err) {
    throw new InputError(`Secret key: ${explain(err)}`);
  }
}

export function readAddress(id, label) {
  const text = $(id).value.trim();
  if (text === '') throw new InputError(`${label}: the field is empty.`);
  try {
    return addressToText(addressFromText(text));
  } catch (err) {
    throw new InputError(`${label}: ${explain(err)}`);
  }
}

export function showPublicKey() {
  const text = $('secret-key').value.trim();
  const out = $('public-key');
  if (text === '') {
    out.textContent = 'none yet';
    return;
  }
  try {
    out.textContent = bytesToHex(publicKeyOf(toSecretKeyBytes(text.replace(/^0x/i, ''))), true);
  } catch {
    out.textContent = 'not a valid secret key (64 hex digits expected)';
  }
}

const ADDRESS_HINTS = {
  empty: 'A new key has no wallet yet: Register mines the proof of work and creates one.',
  filled: "This key's wallet: Load wallet shows its balance and readies it to send. Clear the field to register another wallet.",
};

/** Register when there is no address yet, Load wallet when there is one; the hint says which. */
export function showWalletAction() {
  const hasAddress = $('address').value.trim() !== '';
  $('register').hidden = hasAddress;
  $('load-wallet').hidden = !hasAddress;
  $('address-hint').textContent = hasAddress ? ADDRESS_HINTS.filled : ADDRESS_HINTS.empty;
}

/** Offers the address in the transfer form's To field. */
const knownAddresses = new Set();
export function rememberAddress(address) {
  if (knownAddresses.has(address)) return;
  knownAddresses.add(address);
  const option = document.createElement('option');
  option.value = address;
  $('known-addresses').append(option);
}

export async function loadWallet() {
  clearError('wallet-error');
  let address;
  let client;
  let secretKey = null;
  try {
    client = needClient();
    address = readAddress('address', 'Address');
    if ($('secret-key').value.trim() !== '') secretKey = readSecretKey();
  } catch (err) {
    showError('wallet-error', err);
    return;
  }
  setStatus('wallet-status', `Reading wallet ${address}…`);
  let info;
  try {
    info = await client.getAddress(address);
  } catch (err) {
    setStatus('wallet-status', '');
    showError('wallet-error', err);
    return;
  }
  $('address').value = info.address;
  $('mining').hidden = true;
  rememberAddress(info.address);
  showBalance(info);
  if (secretKey && info.pubkey) {
    const mine = bytesToHex(publicKeyOf(secretKey)).toLowerCase();
    if (info.pubkey.toLowerCase() !== mine) {
      setStatus('wallet-status', `Wallet ${info.address} loaded, view only.`);
      showError('wallet-error', `The secret key does not sign for ${info.address}: the wallet's public key is ${info.pubkey}. Paste the key that belongs to this address to send from it.`);
      return;
    }
    rememberKey(bytesToHex(secretKey), 'imported', info.address);
  }
  setStatus('wallet-status', secretKey ? `Wallet ${info.address} loaded: ready to send.` : `Wallet ${info.address} loaded, view only: paste its secret key to send from it.`, true);
}

export function showBalance(info) {
  $('wallet-address').textContent = info.address;
  $('wallet-seq').textContent = String(info.seq);
  const rows = Object.entries(info.amount).map(([currency, amount]) => {
    const tr = document.createElement('tr');
    tr.dataset.currency = currency;
    const cur = document.createElement('td');
    cur.textContent = currency;
    const value = document.createElement('td');
    value.className = 'num';
    value.textContent = formatCount(amount);
    value.dataset.amount = String(amount);
    tr.append(cur, value);
    return tr;
  });
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 2;
    td.textContent = 'Nothing yet: a new wallet starts empty. Send to it from a funded one.';
    tr.append(td);
    rows.push(tr);
  }
  $('balance-rows').replaceChildren(...rows);
  $('faucet-row').hidden = !state.devApi;
  $('wallet-info').hidden = false;
}

export async function refreshBalance() {
  const address = $('wallet-address').textContent;
  if (!state.client || !address) return;
  try {
    showBalance(await state.client.getAddress(address));
  } catch (err) {
    showError('wallet-error', err);
  }
}

/** A fresh key in the field: no address, no wallet shown, Register next. */
export function generateKey() {
  $('secret-key').value = bytesToHex(generateSecretKey());
  rememberKey($('secret-key').value, 'generated');
  $('mining').hidden = true;
  $('wallet-info').hidden = true;
  $('address').value = '';
  showPublicKey();
  showWalletAction();
  clearError('wallet-error');
  setStatus('wallet-status', 'New key generated. It has no wallet yet: press Register.');
  $('register').focus();
}

/** A key typed, pasted or put into the field by an import joins the session's list once it is valid. */
export function keyTyped() {
  showPublicKey();
  rememberKey($('secret-key').value, 'imported');
  followFields();
}

/** The wallet chosen in the list back in the fields; a registered one is loaded at once. */
export async function chooseWallet() {
  const w = chosenWallet();
  if (!w) return;
  $('secret-key').value = w.secretKey;
  $('address').value = w.address;
  $('wallet-info').hidden = true;
  $('mining').hidden = true;
  showPublicKey();
  showWalletAction();
  clearError('wallet-error');
  if (w.address && state.client) await loadWallet();
  else setStatus('wallet-status', w.address ? `Wallet ${w.address}: press Load wallet.` : 'This key has no wallet yet: press Register.');
}

/** Money from the node's faucet (development API) into the wallet shown. */
export async function fundFromFaucet() {
  clearError('wallet-error');
  const address = $('wallet-address').textContent;
  try {
    const client = needClient();
    if (!address) throw new InputError('Load or register a wallet first: the faucet funds the wallet shown.');
    setStatus('wallet-status', `Asking the faucet for ${address}…`);
    const block = await client.dev.faucet(address, FAUCET_AMOUNT);
    await refreshBalance();
    setStatus('wallet-status', `The faucet credited ${formatCount(FAUCET_AMOUNT)} SK to ${address} in block ${block.height}.`, true);
  } catch (err) {
    setStatus('wallet-status', '');
    showError('wallet-error', `Faucet: ${explain(err)}`);
  }
}

/** What the faucet button asks for, in smallest units. */
export const FAUCET_AMOUNT = 1_000_000n;

/** A development account of the node (section 1) into the fields, loaded and ready to send. */
export async function useDevAccount(address, secretKeyHex) {
  $('secret-key').value = secretKeyHex;
  $('address').value = address;
  rememberKey(secretKeyHex, 'development', address);
  followFields();
  showPublicKey();
  showWalletAction();
  await loadWallet();
  $('wallet-heading').scrollIntoView({ block: 'start' });
}
