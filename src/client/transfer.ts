// transfer: one signed generic transaction moving `amount` of a currency, with the seq
// from the node and the fee from its settings; submitted and, by default, waited for.

import { addressFromText } from '../codec/address.js';
import { genericBody } from '../codec/body-generic.js';
import type { BodyExtraInput, PayloadItemInput } from '../codec/body-types.js';
import { expectBytes } from '../bytes.js';
import { toSecretKeyBytes, type SecretKeyInput } from '../crypto/keys.js';
import { signTx } from '../crypto/sign-tx.js';
import { ArgumentError } from '../errors.js';
import type { TpkitClient } from './client.js';
import { DEFAULT_MAX_FEE, boundedAutoFee, chooseFeeCurrency, feeRates, optionalSettings } from './fee.js';

export { DEFAULT_MAX_FEE };
import { TxFailedError } from './client-errors.js';
import type { TxStatus } from './responses.js';

export type TransferStage = 'preparing' | 'submitting' | 'waiting';

export interface TransferOptions {
  client: TpkitClient;
  /** The sender wallet's secret key: 32 bytes or 64 hex digits (`0x` optional). */
  secretKey: SecretKeyInput;
  from: string | Uint8Array;
  to: string | Uint8Array;
  currency: string;
  amount: bigint;
  /** Put in the body's `e` map as `msg`, as the official SDK does. */
  message?: string;
  /** 'auto' (default): the node's fee for this body; a bigint: that srcfee amount (0n: none). */
  fee?: 'auto' | bigint;
  /**
   * The largest fee 'auto' pays (default 10^12 of the smallest unit); a node whose settings
   * ask for more gets FEE_TOO_HIGH before anything is signed. A fee given as a bigint is
   * the caller's own and is not bounded.
   */
  maxFee?: bigint;
  /** Currency the fee is paid in (default: the transferred one if the node has a rate for it). */
  feeCurrency?: string;
  /** Seq to use (default: the node's seq for `from` + 1). */
  seq?: bigint;
  /** Body and signature time in ms (default now). */
  timestamp?: number;
  /** Wait for the block (default true). */
  wait?: boolean;
  /** Longest wait for inclusion in ms (default 60000). */
  timeoutMs?: number;
  signal?: AbortSignal;
  onStage?: (stage: TransferStage) => void;
  /**
   * Called with the seq and fee just before signing; throwing stops the transfer with nothing
   * signed or sent (a wallet checks that the balance covers amount and fee).
   */
  beforeSigning?: (plan: TransferPlan) => void | Promise<void>;
}

export interface TransferPlan {
  seq: bigint;
  /** The srcfee amount (0n when none). */
  fee: bigint;
  feeCurrency?: string;
}

export interface TransferResult {
  txid: string;
  seq: bigint;
  /** The srcfee amount paid (0n when none). */
  fee: bigint;
  feeCurrency?: string;
  /** The included result (when waited for). */
  status?: TxStatus;
  /** The signed container as submitted. */
  tx: Uint8Array;
}

function address(value: string | Uint8Array, label: string): Uint8Array {
  return typeof value === 'string' ? addressFromText(value) : expectBytes(value, label, 8);
}

export async function transfer(options: TransferOptions): Promise<TransferResult> {
  const { client, currency, amount, signal } = options;
  if (typeof amount !== 'bigint' || amount <= 0n) throw new ArgumentError(`"amount" expected a positive bigint, got ${typeof amount === 'bigint' ? amount : typeof amount}`);
  if (typeof currency !== 'string' || currency === '') throw new ArgumentError('"currency" expected a non-empty string');
  const fee = options.fee ?? 'auto';
  if (fee !== 'auto' && (typeof fee !== 'bigint' || fee < 0n)) throw new ArgumentError(`"fee" expected 'auto' or a bigint >= 0, got ${String(fee)}`);
  const maxFee = options.maxFee ?? DEFAULT_MAX_FEE;
  if (typeof maxFee !== 'bigint' || maxFee < 0n) throw new ArgumentError(`"maxFee" expected a bigint >= 0, got ${String(maxFee)}`);
  const secretKey = toSecretKeyBytes(options.secretKey, 'secretKey');
  const from = address(options.from, 'from');
  const to = address(options.to, 'to');

  client.checkTransport();
  options.onStage?.('preparing');
  const seq = options.seq ?? (await client.getSeq(from, { signal })) + 1n;
  const timestamp = options.timestamp ?? Date.now();
  const extra: BodyExtraInput | undefined = options.message === undefined ? undefined : { msg: options.message };
  const input = { from, to, seq, timestamp, extra, payload: [{ purpose: 'transfer', currency, amount }] as PayloadItemInput[] };

  let feeAmount = 0n;
  let feeCurrency: string | undefined;
  if (fee === 'auto') {
    // A node without fee settings charges none.
    const rates = feeRates(await optionalSettings(client, 'current/fee', signal));
    feeCurrency = chooseFeeCurrency(rates, currency, options.feeCurrency);
    if (feeCurrency !== undefined) feeAmount = boundedAutoFee((payload) => genericBody({ ...input, payload }), input.payload, feeCurrency, rates.get(feeCurrency)!, maxFee);
  } else if (fee > 0n) {
    feeAmount = fee;
    feeCurrency = options.feeCurrency ?? currency;
  }
  if (feeCurrency !== undefined) input.payload.push({ purpose: 'srcfee', currency: feeCurrency, amount: feeAmount });
  await options.beforeSigning?.(feeCurrency === undefined ? { seq, fee: feeAmount } : { seq, fee: feeAmount, feeCurrency });

  const tx = signTx(genericBody(input), secretKey, { timestamp });
  options.onStage?.('submitting');
  const txid = await client.submitTx(tx, { signal });
  const result: TransferResult = { txid, seq, fee: feeAmount, tx };
  if (feeCurrency !== undefined) result.feeCurrency = feeCurrency;
  if (options.wait === false) return result;
  options.onStage?.('waiting');
  const status = await client.waitForTx(txid, { signal, timeoutMs: options.timeoutMs });
  if (!status.ok) throw new TxFailedError(txid, status.reason);
  result.status = status;
  return result;
}
