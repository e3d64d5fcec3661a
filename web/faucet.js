// The faucet page: a form over the node's development faucet (POST /api/dev/faucet), on the
// node's own origin so its origin policy and Content-Security-Policy need no exception.

import { createClient } from './browser/tpkit.js';
import { $, clearError, setStatus, showError } from './dom.js';
import { explain } from './explain.js';

/** Three times the SDK's gas reserve (2·10^18 units): a contract call from a dApp can be signed. */
export const FAUCET_DEFAULT = 3_000_000_000_000_000_000n;

const client = createClient({ baseUrl: location.origin });

async function fund(event) {
  event.preventDefault();
  clearError('faucet-error');
  const address = $('faucet-address').value.trim();
  const currency = $('faucet-currency').value.trim();
  const amountText = $('faucet-amount').value.trim();
  if (!/^\d{1,20}$/.test(amountText) || BigInt(amountText) === 0n) {
    showError('faucet-error', 'The amount is a whole number of the smallest units, 1 or more (at most 20 digits).');
    return;
  }
  const button = $('faucet-send');
  button.disabled = true;
  try {
    setStatus('faucet-status', `Asking the faucet for ${address}…`);
    const block = await client.dev.faucet(address, BigInt(amountText), { currency });
    const wallet = await client.getAddress(address);
    const balance = wallet.amount[currency] ?? 0n;
    setStatus('faucet-status', `Credited ${amountText} ${currency} to ${address} in block ${block.height}; it holds ${balance} ${currency}.`, true);
  } catch (err) {
    setStatus('faucet-status', '');
    showError('faucet-error', explain(err));
  } finally {
    button.disabled = false;
  }
}

/**
 * The address a wallet's link names: ?address=, ?wallet= or ?to=, or in the hash (#address=…,
 * #AA…): a wallet that appends its address to the faucet URL fills the field.
 */
export function linkedAddress(url) {
  const hash = url.hash.replace(/^#/, '');
  const fromHash = new URLSearchParams(hash);
  for (const params of [url.searchParams, fromHash]) {
    for (const name of ['address', 'wallet', 'to']) {
      const value = params.get(name)?.trim();
      if (value) return value;
    }
  }
  return /^[A-Za-z0-9]{18,20}$/.test(hash) ? hash : undefined;
}

const asked = linkedAddress(new URL(location.href));
if (asked) $('faucet-address').value = asked;
$('faucet-amount').value = String(FAUCET_DEFAULT);
$('faucet-form').addEventListener('submit', fund);
