// The wallet playground: connects to a node, calibrates the miner, registers wallets with a
// live progress view, sends transfers and benchmarks the Web Worker pool. Everything it
// does goes through the tpkit browser bundle. This file wires the page's controls to the
// panels, one file per section:
//   node-panel.js      1. the node, its difficulty and fees   (estimate.js: the expected time)
//   wallet-panel.js    2. keys, address, balance               (register-panel.js: mining)
//   transfer-panel.js  3. transfers and their states
//   bench-panel.js     4. the worker benchmark                 (benchmark.js: the measurement)
//   support-panel.js   4. what this browser offers the miner   (minerSupport())
//   official-keys-panel.js  keys from the official wallets: seed phrase, export file
// Shared: dom.js (elements, errors, status), state.js (node, pool use), explain.js, format.js.

import { sharedWebMinerPool } from './browser/tpkit.js';
import { RUN_MS } from './benchmark.js';
import { runBenchmark, stopBenchmark } from './bench-panel.js';
import { $, clearError, setStatus, showError } from './dom.js';
import { warmMiner } from './estimate.js';
import { explain } from './explain.js';
import { connect, defaultNodeUrl } from './node-panel.js';
import { cancelRegister, register } from './register-panel.js';
import { minerThreads } from './state.js';
import { downloadExport, importExportFile, importMnemonic } from './official-keys-panel.js';
import { hideCreate, sendTransfer } from './transfer-panel.js';
import { showSupport } from './support-panel.js';
import { chooseWallet, fundFromFaucet, generateKey, keyTyped, loadWallet, refreshBalance, showWalletAction, useDevAccount } from './wallet-panel.js';
import { chosenWallet, holdsRegisteredKey } from './wallet-list.js';

/** Export of the chosen wallet: its key goes into the fields, and the export form is next. */
async function exportChosen() {
  if (!chosenWallet()) return;
  await chooseWallet();
  $('new-export-passphrase').focus();
  setStatus('official-status', 'Type a passphrase (12 or more characters) and press Download export file: the file holds this wallet, encrypted.');
}

function start() {
  $('bench-seconds').textContent = String(RUN_MS / 1000);
  try {
    $('isolation').textContent = sharedWebMinerPool().shared
      ? `Miner: ${minerThreads()} Web Workers, one per logical core. This page is cross-origin isolated: Cancel reaches every worker through shared memory within milliseconds.`
      : `Miner: ${minerThreads()} Web Workers, one per logical core. No shared memory here (the reason follows once checked): workers mine in runs of about 50 ms and stop at the end of one.`;
  } catch (err) {
    showError('node-error', `This browser cannot mine here. ${explain(err)}`);
  }
  $('node-url').value = defaultNodeUrl();
  $('node-form').addEventListener('submit', (e) => {
    e.preventDefault();
    connect();
  });
  $('dev-accounts').addEventListener('click', (e) => {
    const use = e.target.closest('button[data-secret-key]');
    if (use) useDevAccount(use.dataset.address, use.dataset.secretKey);
  });
  // Keys live only in this page: a reload or a closed tab loses a wallet registered here
  // unless its key was copied or exported, so the browser asks first.
  window.addEventListener('beforeunload', (e) => {
    if (!holdsRegisteredKey()) return;
    e.preventDefault();
    e.returnValue = '';
  });
  $('secret-key').addEventListener('input', keyTyped);
  $('wallet-list').addEventListener('change', chooseWallet);
  $('wallet-export').addEventListener('click', exportChosen);
  $('faucet').addEventListener('click', fundFromFaucet);
  // An error is about what was typed: it goes as soon as the user types again.
  for (const [area, error] of [
    ['node-form', 'node-error'],
    ['wallet-form', 'wallet-error'],
    ['transfer-form', 'transfer-error'],
    ['official-heading', 'official-error'],
  ]) {
    const root = area === 'official-heading' ? $(area).closest('section') : $(area);
    root.addEventListener('input', () => clearError(error));
  }
  $('address').addEventListener('input', showWalletAction);
  $('generate-key').addEventListener('click', generateKey);
  $('wallet-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if ($('address').value.trim() === '') register();
    else loadWallet();
  });
  $('register').addEventListener('click', register);
  $('cancel').addEventListener('click', cancelRegister);
  $('refresh').addEventListener('click', refreshBalance);
  $('transfer-to').addEventListener('input', hideCreate);
  $('transfer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendTransfer();
  });
  for (const [form, action] of [
    ['mnemonic-form', importMnemonic],
    ['export-import-form', importExportFile],
    ['export-form', downloadExport],
  ]) {
    $(form).addEventListener('submit', (e) => {
      e.preventDefault();
      action();
    });
  }
  $('bench-run').addEventListener('click', runBenchmark);
  $('bench-stop').addEventListener('click', stopBenchmark);
  // A field is marked invalid only once the user has left it, never on an untouched form.
  for (const input of document.querySelectorAll('input')) input.addEventListener('blur', () => (input.dataset.touched = 'true'));
  showWalletAction();
  document.body.dataset.ready = 'true';
  // The miner gets ready while the node answers: kernels compiled, workers started, code
  // optimized, so a registration starts hashing at once. Should it fail, the estimate uses the calibration.
  // Then what this browser offers the miner (section 4), once the warm-up no longer holds the cores.
  warmMiner()
    .catch(() => {})
    .finally(showSupport);
  connect();
}

start();
