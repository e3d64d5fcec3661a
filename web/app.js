// The wallet playground: connects to a node, calibrates the miner, registers wallets with a
// live progress view, sends transfers and benchmarks the Web Worker pool. Everything it
// does goes through the tpkit browser bundle; this file only wires it to the page.

import {
  bytesToHex,
  calibrate,
  createClient,
  estimateMining,
  generateSecretKey,
  publicKeyOf,
  registerWallet,
  sharedWebMinerPool,
  toSecretKeyBytes,
  addressFromText,
  addressToText,
  transfer,
} from './browser/tpkit.js';
import { benchmarkWorkers, RUN_MS } from './benchmark.js';
import { renderBarChart } from './chart.js';
import { explain, explainTxReason, InputError } from './explain.js';
import { formatCount, formatDuration, formatRate, shortHash } from './format.js';

const $ = (id) => document.getElementById(id);

/** How often the screen-reader summary of a running registration speaks. */
const SUMMARY_EVERY_MS = 5000;

const state = {
  client: null,
  /** current.register.diff of the connected node. */
  difficulty: null,
  calibration: null,
  /** Hash rate of every worker together, from the last benchmark run. */
  measuredRate: null,
  /** 'register' | 'bench' while either uses the worker pool. */
  busy: null,
  registerAbort: null,
  benchAbort: null,
};

/** Workers of the page's miner pool: one per logical core the browser reports. */
function minerThreads() {
  return sharedWebMinerPool().threads;
}

// ---- messages -------------------------------------------------------------------------

function showError(id, err) {
  const node = $(id);
  node.textContent = typeof err === 'string' ? err : explain(err);
  node.hidden = false;
}

function clearError(id) {
  const node = $(id);
  node.textContent = '';
  node.hidden = true;
}

function setStatus(id, text, ok = false) {
  const node = $(id);
  node.textContent = text;
  node.classList.toggle('ok', ok);
}

function isAbort(err) {
  return err?.code === 'ABORTED' || err?.name === 'AbortError';
}

// ---- node ------------------------------------------------------------------------------

function defaultNodeUrl() {
  const asked = new URLSearchParams(location.search).get('node');
  if (asked) return asked;
  return location.protocol === 'http:' || location.protocol === 'https:' ? location.origin : 'http://127.0.0.1:43280';
}

function feeText(fee) {
  if (!fee || typeof fee !== 'object') return 'none';
  const rates = Object.entries(fee).filter(([cur, r]) => cur !== 'params' && r && typeof r === 'object');
  if (rates.length === 0) return 'none';
  return rates.map(([cur, r]) => `${cur}: base ${r.base}, ${r.kb} per KiB over ${r.baseextra ?? 0} bytes`).join('; ');
}

async function connect() {
  clearError('node-error');
  $('node-info').hidden = true;
  let client;
  try {
    client = createClient({ baseUrl: $('node-url').value.trim() });
  } catch (err) {
    showError('node-error', `Node URL: ${explain(err)}`);
    return;
  }
  state.client = null;
  state.difficulty = null;
  setStatus('estimate', 'Connecting…');
  try {
    const [status, current] = await Promise.all([client.nodeStatus(), client.getSettings('current')]);
    const diff = Number(current?.register?.diff ?? 0);
    state.client = client;
    state.difficulty = Number.isInteger(diff) ? diff : 0;
    $('node-chain').textContent = `${status.chain}${status.nodename ? ` (${status.nodename})` : ''}`;
    $('node-height').textContent = formatCount(status.height);
    watchHeight(client);
    $('node-difficulty').textContent = String(state.difficulty);
    $('node-fees').textContent = feeText(current?.fee);
    $('node-info').hidden = false;
  } catch (err) {
    setStatus('estimate', '');
    showError('node-error', `Could not connect to ${client.baseUrl}. ${explain(err)}`);
    return;
  }
  await showEstimate();
}

/** Keeps the height current from the node's live stream (a node without one keeps the figure it gave). */
let heightWatch;
function watchHeight(client) {
  heightWatch?.abort();
  const watch = new AbortController();
  heightWatch = watch;
  $('node-height').dataset.live = 'false';
  client
    .watchBlocks((block) => {
      $('node-height').textContent = formatCount(block.height);
      $('node-height').dataset.live = 'true';
    }, { signal: watch.signal })
    .catch(() => {
      if (heightWatch === watch) $('node-height').dataset.live = 'false';
    });
}

/** A transaction's result: from the live stream, or by polling where the node has none. */
async function settled(client, txid) {
  try {
    return await client.watchTx(txid, { timeoutMs: 60_000 });
  } catch (err) {
    if (err?.code === 'NETWORK_ERROR') return client.waitForTx(txid);
    throw err;
  }
}

/** One calibration per page: the device does not change while it is open. */
let calibrating;
function calibration() {
  calibrating ??= calibrate().then((c) => (state.calibration = c));
  return calibrating;
}

async function showEstimate() {
  const difficulty = state.difficulty;
  if (difficulty === null) return;
  const workers = minerThreads();
  if (!state.calibration) setStatus('estimate', 'Measuring how fast this device mines…');
  let c;
  try {
    c = await calibration();
  } catch (err) {
    setStatus('estimate', '');
    showError('node-error', `Calibration failed. ${explain(err)}`);
    return;
  }
  const perWorker = `This device mines about ${formatRate(c.hashRate)} per worker (${c.kernel} kernel, measured in ${formatDuration(c.elapsedMs)}).`;
  if (difficulty === 0) {
    setStatus('estimate', `${perWorker} This node asks for no proof of work: registration takes no mining.`);
    return;
  }
  const rate = state.measuredRate ?? c.hashRate * workers;
  const source = state.measuredRate ? `at the ${formatRate(rate)} the benchmark measured` : `with ${workers} worker${workers === 1 ? '' : 's'}, if they scale evenly`;
  const e = estimateMining(difficulty, rate);
  setStatus(
    'estimate',
    `${perWorker} Registration at difficulty ${difficulty} ${source}: ${formatDuration(e.medianMs)} (median), ` +
      `at most ${formatDuration(e.p95Ms)} 95 times in 100.`,
  );
}

// ---- keys and wallet -------------------------------------------------------------------

/** The secret key in the field, checked; throws an error whose message names the field. */
function readSecretKey() {
  const text = $('secret-key').value.trim().replace(/^0x/i, '');
  if (text === '') throw new InputError('Secret key: the field is empty. Press Generate key, or paste a key.');
  try {
    return toSecretKeyBytes(text);
  } catch (err) {
    throw new InputError(`Secret key: ${explain(err)}`);
  }
}

function readAddress(id, label) {
  const text = $(id).value.trim();
  if (text === '') throw new InputError(`${label}: the field is empty.`);
  try {
    return addressToText(addressFromText(text));
  } catch (err) {
    throw new InputError(`${label}: ${explain(err)}`);
  }
}

function showPublicKey() {
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
function showWalletAction() {
  const hasAddress = $('address').value.trim() !== '';
  $('register').hidden = hasAddress;
  $('load-wallet').hidden = !hasAddress;
  $('address-hint').textContent = hasAddress ? ADDRESS_HINTS.filled : ADDRESS_HINTS.empty;
}

const knownAddresses = new Set();
function rememberAddress(address) {
  if (knownAddresses.has(address)) return;
  knownAddresses.add(address);
  const option = document.createElement('option');
  option.value = address;
  $('known-addresses').append(option);
}

function needClient() {
  if (!state.client) throw new InputError('Not connected to a node. Enter the node URL and press Connect.');
  return state.client;
}

async function loadWallet() {
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
  }
  setStatus('wallet-status', secretKey ? `Wallet ${info.address} loaded: ready to send.` : `Wallet ${info.address} loaded, view only: paste its secret key to send from it.`, true);
}

function showBalance(info) {
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
  $('wallet-info').hidden = false;
}

async function refreshBalance() {
  const address = $('wallet-address').textContent;
  if (!state.client || !address) return;
  try {
    showBalance(await state.client.getAddress(address));
  } catch (err) {
    showError('wallet-error', err);
  }
}

// ---- registration ----------------------------------------------------------------------

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

async function register() {
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
    $('address').value = result.address;
    rememberAddress(result.address);
    showWalletAction();
    setStatus(
      'wallet-status',
      `Registered ${result.address}${result.block ? ` in block ${shortHash(result.block)}` : ''}: ` +
        `${formatCount(m.hashes)} hashes in ${formatDuration(m.elapsedMs)} at difficulty ${result.difficulty} (${m.bits} bits, ${m.kernel} kernel).`,
      true,
    );
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

async function refreshWalletAfterRegister(address) {
  try {
    showBalance(await state.client.getAddress(address));
  } catch (err) {
    showError('wallet-error', err);
  }
}

// ---- transfers -------------------------------------------------------------------------

const TRANSFER_STATES = {
  preparing: "preparing (reading the seq and the node's fee)",
  submitting: 'submitting',
  pending: 'pending',
  included: 'included',
  failed: 'failed',
};

function transferItem(summary) {
  const li = document.createElement('li');
  const head = document.createElement('div');
  const what = document.createElement('span');
  what.textContent = `${summary}: `;
  const stateEl = document.createElement('span');
  stateEl.className = 'state';
  head.append(what, stateEl);
  const details = document.createElement('div');
  details.className = 'details';
  const history = document.createElement('div');
  history.className = 'history';
  li.append(head, details, history);
  $('transfers').prepend(li);
  const steps = [];
  return {
    li,
    set(name, detail) {
      li.dataset.state = name;
      stateEl.textContent = TRANSFER_STATES[name] ?? name;
      stateEl.className = `state state-${name}`;
      if (detail !== undefined) details.textContent = detail;
      if (steps[steps.length - 1] !== name) steps.push(name);
      history.textContent = `Status: ${steps.join(' → ')}`;
      li.dataset.history = steps.join(' ');
    },
  };
}

async function sendTransfer() {
  clearError('transfer-error');
  let client;
  let secretKey;
  let from;
  let to;
  let amount;
  const currency = $('transfer-currency').value.trim();
  const message = $('transfer-message').value;
  try {
    client = needClient();
    from = readAddress('address', 'Sending wallet address (section 2)');
    secretKey = readSecretKey();
    to = readAddress('transfer-to', 'To address');
    const amountText = $('transfer-amount').value.trim();
    if (!/^[0-9]+$/.test(amountText) || BigInt(amountText) === 0n) {
      throw new InputError(`Amount: expected a whole number above 0 (smallest units), got "${amountText}".`);
    }
    if (BigInt(amountText) >= 1n << 64n) {
      throw new InputError(`Amount: ${amountText} is more than any wallet can hold; the largest amount is 18446744073709551615 smallest units.`);
    }
    amount = BigInt(amountText);
    if (currency === '') throw new InputError('Currency: the field is empty; the development accounts hold SK.');
  } catch (err) {
    showError('transfer-error', err);
    return;
  }
  const item = transferItem(`${formatCount(amount)} ${currency} from ${from} to ${to}`);
  item.set('preparing');
  let txid;
  try {
    const sent = await transfer({
      client,
      secretKey,
      from,
      to,
      currency,
      amount,
      message: message === '' ? undefined : message,
      fee: 'auto',
      wait: false,
      onStage: (s) => {
        if (s === 'submitting') item.set('submitting');
      },
    });
    txid = sent.txid;
    item.li.dataset.txid = txid;
    const fee = sent.fee > 0n ? `fee ${formatCount(sent.fee)} ${sent.feeCurrency}` : 'no fee';
    item.set('pending', `txid ${txid}, seq ${sent.seq}, ${fee}`);
    rememberAddress(to);
    const status = await settled(client, txid);
    if (status.ok) {
      item.set('included', `txid ${txid}, seq ${sent.seq}, ${fee}; in block ${status.block ?? '(unknown)'}`);
    } else {
      item.set('failed', `txid ${txid} ${explainTxReason(status.reason)}`);
    }
  } catch (err) {
    item.set('failed', explain(err));
    showError('transfer-error', `Transfer ${txid ? `${txid} ` : ''}failed. ${explain(err)}`);
  }
  if ($('wallet-address').textContent === from) await refreshBalance();
}

// ---- benchmark -------------------------------------------------------------------------

function showBenchmark(results) {
  const base = results[0]?.hashRate || 1;
  const rows = results.map((r) => {
    const tr = document.createElement('tr');
    tr.dataset.workers = String(r.workers);
    tr.dataset.rate = String(Math.round(r.hashRate));
    for (const [text, cls] of [
      [String(r.workers), ''],
      [formatRate(r.hashRate), 'num'],
      [formatRate(r.hashRate / r.workers), 'num'],
      [`${(r.hashRate / base).toFixed(2)}×`, 'num'],
    ]) {
      const td = document.createElement('td');
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  });
  $('bench-rows').replaceChildren(...rows);
  const figures = results.map((r) => `${r.workers} worker${r.workers === 1 ? '' : 's'}: ${formatRate(r.hashRate)}`).join(', ');
  renderBarChart($('bench-chart'), {
    items: results.map((r) => ({ label: `${r.workers} worker${r.workers === 1 ? '' : 's'}`, value: r.hashRate })),
    format: formatRate,
    title: 'Hash rate per worker count',
    description: figures,
    axisLabel: 'Web Workers mining at once',
  });
  $('bench-figure').hidden = false;
}

async function runBenchmark() {
  clearError('bench-error');
  if (state.busy === 'register') {
    showError('bench-error', 'A registration is using the workers. Wait for it, or press Cancel.');
    return;
  }
  if (state.busy === 'bench') return;
  const controller = new AbortController();
  state.benchAbort = controller;
  state.busy = 'bench';
  delete $('bench-figure').dataset.complete;
  $('bench-run').hidden = true;
  $('bench-stop').hidden = false;
  $('register').disabled = true;
  const max = minerThreads();
  try {
    // The calibration runs on this page's thread: let it end before the workers start.
    await calibrating?.catch(() => {});
    const results = await benchmarkWorkers({
      maxWorkers: max,
      signal: controller.signal,
      onStart: (workers) => setStatus('bench-status', `Measuring ${workers} of ${max} worker counts…`),
      onResult: showBenchmark,
    });
    if (controller.signal.aborted) {
      setStatus('bench-status', `Stopped after ${results.length} of ${max} worker counts.`);
    } else {
      const best = results.reduce((a, b) => (b.hashRate > a.hashRate ? b : a));
      state.measuredRate = results[results.length - 1].hashRate;
      setStatus('bench-status', `Done: the best is ${formatRate(best.hashRate)} with ${best.workers} worker${best.workers === 1 ? '' : 's'}.`, true);
      $('bench-figure').dataset.complete = 'true';
      await showEstimate();
    }
  } catch (err) {
    setStatus('bench-status', '');
    showError('bench-error', `Benchmark failed. ${explain(err)}`);
  } finally {
    state.busy = null;
    state.benchAbort = null;
    $('bench-run').hidden = false;
    $('bench-stop').hidden = true;
    $('register').disabled = false;
  }
}

// ---- wiring ----------------------------------------------------------------------------

function start() {
  $('bench-seconds').textContent = String(RUN_MS / 1000);
  try {
    $('isolation').textContent = sharedWebMinerPool().shared
      ? `Miner: ${minerThreads()} Web Workers, one per logical core. This page is cross-origin isolated: Cancel reaches every worker through shared memory within milliseconds.`
      : `Miner: ${minerThreads()} Web Workers, one per logical core. This page is not cross-origin isolated (its server sends no COOP/COEP headers): workers mine in runs of about 50 ms and stop at the end of one.`;
  } catch (err) {
    showError('node-error', `This browser cannot mine here. ${explain(err)}`);
  }
  $('node-url').value = defaultNodeUrl();
  $('node-form').addEventListener('submit', (e) => {
    e.preventDefault();
    connect();
  });
  $('secret-key').addEventListener('input', showPublicKey);
  $('address').addEventListener('input', showWalletAction);
  $('generate-key').addEventListener('click', () => {
    $('secret-key').value = bytesToHex(generateSecretKey());
    $('mining').hidden = true;
    $('wallet-info').hidden = true;
    $('address').value = '';
    showPublicKey();
    showWalletAction();
    clearError('wallet-error');
    setStatus('wallet-status', 'New key generated. It has no wallet yet: press Register.');
    $('register').focus();
  });
  $('wallet-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if ($('address').value.trim() === '') register();
    else loadWallet();
  });
  $('register').addEventListener('click', register);
  $('cancel').addEventListener('click', () => state.registerAbort?.abort());
  $('refresh').addEventListener('click', refreshBalance);
  $('transfer-form').addEventListener('submit', (e) => {
    e.preventDefault();
    sendTransfer();
  });
  $('bench-run').addEventListener('click', runBenchmark);
  $('bench-stop').addEventListener('click', () => state.benchAbort?.abort());
  // A field is marked invalid only once the user has left it, never on an untouched form.
  for (const input of document.querySelectorAll('input')) input.addEventListener('blur', () => (input.dataset.touched = 'true'));
  showWalletAction();
  document.body.dataset.ready = 'true';
  connect();
}

start();
