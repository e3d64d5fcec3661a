// Section 3, transfers: signs and sends from the wallet in section 2, and lists each
// transfer with its state (preparing -> submitting -> pending -> included or failed).

import { transfer } from './browser/tpkit.js';
import { $, clearError, showError } from './dom.js';
import { explain, explainTxReason, InputError } from './explain.js';
import { formatCount } from './format.js';
import { needClient } from './state.js';
import { readAddress, readSecretKey, refreshBalance, rememberAddress } from './wallet-panel.js';

const TRANSFER_STATES = {
  preparing: "preparing (reading the seq and the node's fee)",
  submitting: 'submitting',
  pending: 'pending',
  included: 'included',
  failed: 'failed',
};

/** A transaction's result: from the live stream, or by polling where the node has none. */
async function settled(client, txid) {
  try {
    return await client.watchTx(txid, { timeoutMs: 60_000 });
  } catch (err) {
    if (err?.code === 'NETWORK_ERROR') return client.waitForTx(txid);
    throw err;
  }
}

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

/** The wallet at `address`, or null when the node has none there. */
async function walletOrNull(client, address) {
  try {
    return await client.getAddress(address);
  } catch (err) {
    if (err?.code === 'API_ERROR' && err.status === 404) return null;
    throw err;
  }
}

/** The sender exists and holds the currency and the amount; the recipient exists, or its creation is confirmed. */
async function checkBeforeSigning(client, { from, to, currency, amount }) {
  const sender = await walletOrNull(client, from);
  if (!sender) throw new InputError(`Nothing was sent: the sending wallet ${from} does not exist on this node. Register it, or load another wallet in section 2.`);
  const held = Object.hasOwn(sender.amount, currency) ? sender.amount[currency] : undefined;
  if (held === undefined) {
    const holdings = Object.entries(sender.amount)
      .map(([cur, v]) => `${formatCount(v)} ${cur}`)
      .join(', ');
    throw new InputError(`Nothing was sent: wallet ${from} holds no ${currency}. ${holdings ? `It holds ${holdings}: check the currency.` : 'It holds nothing yet: fund it first.'}`);
  }
  if (amount > held) {
    throw new InputError(
      `Nothing was sent: ${formatCount(amount)} ${currency} is more than wallet ${from} holds (${formatCount(held)} ${currency}). Send less, or fund the wallet first; the fee comes on top.`,
    );
  }
  if (!(await walletOrNull(client, to)) && !$('transfer-create').checked) {
    $('transfer-create-row').hidden = false;
    throw new InputError(`Nothing was sent: ${to} has no wallet on this node. Check the address; if a new wallet is meant, tick "Create a new wallet at this address" and press Send again.`);
  }
  return sender;
}

/** Once the fee is known: amount and fee together must be in the wallet. */
function checkFeeCovered({ from, currency, amount }, sender, plan) {
  if (plan.feeCurrency === undefined || plan.fee === 0n) return;
  const cur = plan.feeCurrency;
  const held = Object.hasOwn(sender.amount, cur) ? sender.amount[cur] : 0n;
  const needed = cur === currency ? amount + plan.fee : plan.fee;
  if (needed > held) {
    throw new InputError(
      `Nothing was sent: ${cur === currency ? `${formatCount(amount)} ${cur} and the fee of ${formatCount(plan.fee)} ${cur}` : `the fee of ${formatCount(plan.fee)} ${cur}`} come to more than wallet ${from} holds (${formatCount(held)} ${cur}).`,
    );
  }
}

/** After a send: the next transfer starts from empty fields (the currency stays). */
function clearTransferForm() {
  for (const id of ['transfer-to', 'transfer-amount', 'transfer-message']) {
    $(id).value = '';
    delete $(id).dataset.touched;
  }
  hideCreate();
}

/** The creation confirmation belongs to one address: it goes when the address changes. */
export function hideCreate() {
  $('transfer-create').checked = false;
  $('transfer-create-row').hidden = true;
}

export async function sendTransfer() {
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
    if ($('address').value.trim() === '' || $('secret-key').value.trim() === '') {
      throw new InputError('No wallet to send from: load or register a wallet first (section 2, its secret key and address).');
    }
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
  // What the node can tell before anything is signed: as `tpkit send`, a transfer that would
  // fail in its block, or land in a wallet nobody owns, is stopped here with the reason.
  let sender;
  try {
    sender = await checkBeforeSigning(client, { from, to, currency, amount });
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
      beforeSigning: (plan) => checkFeeCovered({ from, currency, amount }, sender, plan),
      onStage: (s) => {
        if (s === 'submitting') item.set('submitting');
      },
    });
    txid = sent.txid;
    item.li.dataset.txid = txid;
    const fee = sent.fee > 0n ? `fee ${formatCount(sent.fee)} ${sent.feeCurrency}` : 'no fee';
    item.set('pending', `txid ${txid}, seq ${sent.seq}, ${fee}`);
    rememberAddress(to);
    clearTransferForm();
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
