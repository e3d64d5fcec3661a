// Registration: mines the proof of work for the key in the field with a live progress view
// (rate, hashes, expected time), submits it, and shows the new wallet; Cancel stops every
// worker before anything is sent.

import { bytesToHex, estimateMining, registerWallet } from './browser/tpkit.js';
import { $, clearError, isAbort, setStatus, showError } from './dom.js';
import { showEstimate } from './estimate.js';
import { explain, InputError } from './explain.js';
import { formatCount, formatDuration, formatRate, shortHash } from './format.js';
import { needClient, state } from './state.js';
import { readSecretKey, rememberAddress, showBalance, showWalletAction } from './wallet-panel.js';
import { rememberKey } from './wallet-list.js';

/** How often the screen-reader summary of a running registration speaks. */
const SUMMARY_EVERY_MS = 5000;

function showProgress(p) {
  // Against the 95th-percentile count: the bar is full when 95 of 100 searches have ended.
  const p95Hashes = (p.expected.p95Ms * p.hashRate) / 1000;
  $('mine-bar').value = Number.isFinite(p95Hashes) && p95Hashes > 0 ? Math.min(1, p.hashes / p95Hashes) : 0;
  $('mine-rate').textContent = formatRate(p.hashRate);
  $('mine-hashes').textContent = formatCount(p.hashes);
  $('mine-elapsed').textContent = formatDuration(p.elapsedMs);
  $('mine-median').textContent = formatDuration(p.expected.medianMs);
  $('mine-p95').textContent = formatDuration(p.expected.p95Ms);
}

const REGISTER_STAGES = {
  settings: "Reading the node's difficulty…",
  mining: 'Mining the registration…',
  submitting: 'Submitting the registration…',
  waiting: 'Registration sent: waiting for the block…',
};

export async function register() {
  clearError('wallet-error');
  let client;
  let secretKey;
  try {
    client = needClient();
    if (state.busy === 'register') throw new InputError('A registration is already running. Wait for it, or press Cancel.');
    if (state.busy === 'bench') throw new InputError('The benchmark is using the workers. Wait for it, or press Stop.');
    secretKey = readSecretKey();
  } catch (err) {
    showError('wallet-error', err);
    return;
  }
  const controller = new AbortController();
  state.registerAbort = controller;
  state.busy = 'register';
  let stage = 'settings';
  let last = null;
  let lastSummary = 0;
  let cancelledAt = 0;
  controller.signal.addEventListener('abort', () => (cancelledAt = performance.now()));
  for (const id of ['mine-rate', 'mine-median', 'mine-p95']) $(id).textContent = '–';
  $('mine-hashes').textContent = '0';
  $('mine-elapsed').textContent = '0 ms';
  $('mine-bar').value = 0;
  $('mine-summary').textContent = '';
  $('mining').hidden = false;
  $('cancel').hidden = false;
  $('register').disabled = true;
  $('bench-run').disabled = true;
  $('mining').dataset.state = 'running';
  try {
    const result = await registerWallet({
      client,
      secretKeys: secretKey,
      // The page shows the expected time while it mines and has Cancel: how long to mine is
      // the choice of the person at it, so the library's default bound is lifted.
      maxDifficulty: 64,
      signal: controller.signal,
      onStage: (s) => {
        stage = s;
        setStatus('wallet-status', REGISTER_STAGES[s] ?? s);
        if (s === 'submitting') $('cancel').hidden = true;
      },
      onProgress: (p) => {
        last = p;
        showProgress(p);
        if (p.elapsedMs - lastSummary >= SUMMARY_EVERY_MS) {
          lastSummary = p.elapsedMs;
          $('mine-summary').textContent = `Mining: ${formatCount(p.hashes)} hashes in ${formatDuration(p.elapsedMs)} at ${formatRate(p.hashRate)}.`;
        }
      },
    });
    const m = result.mined;
    state.startupMs = Math.max(0, m.elapsedMs - m.searchMs);
    $('mine-bar').value = 1;
    $('mine-hashes').textContent = formatCount(m.hashes);
    $('mine-elapsed').textContent = formatDuration(m.elapsedMs);
    // The final figures all describe the same search: its rate and what that rate predicts.
    if (m.elapsedMs > 0 && m.hashes > 0 && result.difficulty > 0) {
      const rate = (m.hashes * 1000) / m.elapsedMs;
      const e = estimateMining(result.difficulty, rate);
      $('mine-rate').textContent = formatRate(rate);
      $('mine-median').textContent = formatDuration(e.medianMs);
      $('mine-p95').textContent = formatDuration(e.p95Ms);
    }
    $('mining').dataset.state = 'done';
    // The figures that matter stay in the status line; the panel is for a running search.
    $('mining').hidden = true;
    rememberKey(bytesToHex(secretKey), 'registered', result.address);
    $('address').value = result.address;
    rememberAddress(result.address);
    showWalletAction();
    setStatus(
      'wallet-status',
      `Registered ${result.address}${result.block ? ` in block ${shortHash(result.block)}` : ''}: ` +
        `${formatCount(m.hashes)} hashes in ${formatDuration(m.elapsedMs)} at difficulty ${result.difficulty} (${m.bits} bits, ${m.kernel} kernel).`,
      true,
    );
    // The estimate now counts the start-up this registration measured.
    showEstimate();
    await refreshWalletAfterRegister(result.address);
  } catch (err) {
    $('mining').dataset.state = isAbort(err) ? 'cancelled' : 'failed';
    if (isAbort(err) && stage === 'mining') {
      const stopMs = performance.now() - cancelledAt;
      const hashes = last ? `${formatCount(last.hashes)} hashes` : 'no hashes';
      setStatus('wallet-status', `Cancelled after ${hashes}: every worker stopped ${formatDuration(stopMs)} after Cancel. Nothing was sent to the node.`);
    } else if (isAbort(err)) {
      setStatus('wallet-status', 'Cancelled before mining started. Nothing was sent to the node.');
    } else {
      setStatus('wallet-status', '');
      showError('wallet-error', `Registration failed. ${explain(err)}`);
    }
  } finally {
    state.busy = null;
    state.registerAbort = null;
    $('cancel').hidden = true;
    $('register').disabled = false;
    $('bench-run').disabled = false;
  }
}

export function cancelRegister() {
  state.registerAbort?.abort();
}

async function refreshWalletAfterRegister(address) {
  try {
    showBalance(await state.client.getAddress(address));
  } catch (err) {
    showError('wallet-error', err);
  }
}
