// What `tpkit send` checks before it signs anything, so a transfer that would fail in its
// block, or land in a wallet nobody owns, is stopped with advice instead: the sender exists
// and has this key, holds the currency and enough of it, the recipient exists (unless
// --create says a new wallet is meant), and, once the fee is known, amount and fee are covered.

import { ApiError, type NodeStatus, type TpkitClient, type TransferPlan, type WalletInfo } from '../client/index.js';
import { bytesToHex } from '../bytes.js';
import { TpkitError } from '../errors.js';

export interface SendPlan {
  client: TpkitClient;
  /** Text addresses. */
  from: string;
  to: string;
  currency: string;
  amount: bigint;
  publicKey: Uint8Array;
  keyPath: string;
  /** Whether the sender came from --from (else from the key file). */
  fromGiven: boolean;
  /** Send to an address that has no wallet yet. */
  create: boolean;
  signal?: AbortSignal;
}

const refused = (message: string, advice: string) => new TpkitError('PRECHECK_FAILED', message, { details: advice });

async function walletOrUndefined(client: TpkitClient, address: string, signal?: AbortSignal): Promise<WalletInfo | undefined> {
  try {
    return await client.getAddress(address, { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** The checks that need no fee; returns the sender as the node shows it. */
export async function checkBeforeSigning(plan: SendPlan): Promise<WalletInfo> {
  const { client, from, to, currency, amount, signal } = plan;
  const sender = await walletOrUndefined(client, from, signal);
  if (!sender) {
    throw refused(
      `the sending wallet ${from} does not exist on this node`,
      plan.fromGiven
        ? 'check --from'
        : `${plan.keyPath} names it: if the wallet lives on another chain, pass that chain's node with --node; only if this node's chain was reset, register the key again (tpkit register --key ${plan.keyPath} --force)`,
    );
  }
  const key = bytesToHex(plan.publicKey, true);
  if (sender.pubkey.toUpperCase() !== key) {
    throw refused(
      `the key in ${plan.keyPath} is not the key of wallet ${from}`,
      sender.pubkey ? `that wallet's key is ${sender.pubkey}; ${plan.fromGiven ? 'check --from and --key' : 'use the key file that registered it'}` : 'that wallet has no key: nobody can send from it',
    );
  }
  // Own keys only: a currency named `constructor` is not Object.prototype's.
  const held = Object.hasOwn(sender.amount, currency) ? sender.amount[currency] : undefined;
  if (held === undefined) {
    const holdings = Object.entries(sender.amount)
      .map(([cur, v]) => `${v} ${cur}`)
      .join(', ');
    throw refused(`wallet ${from} holds no ${currency}`, holdings ? `it holds ${holdings}; check --currency` : 'it holds nothing yet: fund it first (on a local tpkit node: tpkit faucet)');
  }
  if (amount > held) {
    throw refused(`${amount} ${currency} is more than wallet ${from} holds (${held} ${currency})`, 'send less, or fund the wallet first; the fee comes on top of the amount');
  }
  if (!plan.create && !(await walletOrUndefined(client, to, signal))) {
    throw refused(`${to} has no wallet on this node`, 'check the address; if a new wallet is meant, pass --create (the transfer creates it, without a key until someone registers one there)');
  }
  return sender;
}

/** The fee comes on top of the amount: both must be in the sender's wallet. */
export function checkFeeCovered(plan: Pick<SendPlan, 'from' | 'currency' | 'amount'>, sender: WalletInfo, fee: TransferPlan): void {
  const { from, currency, amount } = plan;
  if (fee.feeCurrency === undefined || fee.fee === 0n) return;
  const cur = fee.feeCurrency;
  const held = Object.hasOwn(sender.amount, cur) ? sender.amount[cur] : 0n;
  if (cur === currency && amount + fee.fee > held) {
    throw refused(
      `${amount} ${cur} and the fee of ${fee.fee} ${cur} come to ${amount + fee.fee} ${cur}, more than wallet ${from} holds (${held} ${cur})`,
      held > fee.fee ? `send at most ${held - fee.fee} ${cur}, or fund the wallet first` : 'fund the wallet first',
    );
  }
  if (cur !== currency && fee.fee > held) {
    throw refused(`the fee of ${fee.fee} ${cur} is more than wallet ${from} holds (${held} ${cur})`, `fund the wallet with ${cur}, or pay the fee in another currency (--fee-currency)`);
  }
}

/** How the node makes blocks, when it says (a tpkit node does); a node that will not say is waited for as before. */
export async function blockMaking(client: TpkitClient, signal?: AbortSignal): Promise<NodeStatus['blocks']> {
  return client.nodeStatus({ signal }).then(
    (status) => status.blocks,
    () => undefined,
  );
}
