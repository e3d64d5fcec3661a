// Contracts from a wallet: deployContract (a kind-18 body with the creation code, deployed
// at the sender's own address, as the official SDK's composeDeployTX does) and
// sendContractCall (a generic body to the contract with the calldata as c = ["0x0", [data]]),
// each with the seq from the node, gas bought in the node's `current.gas` currency, the fee
// from its settings, submitted and by default waited for. Views go through client.executeCall.
// Calldata is ABI-encoded by the caller (viem's encodeFunctionData, ethers' Interface…): the
// client carries no ABI codec.

import { addressFromText, addressToText } from '../codec/address.js';
import { deployBody } from '../codec/body-deploy.js';
import { genericBody } from '../codec/body-generic.js';
import type { PayloadItemInput } from '../codec/body-types.js';
import { expectBytes, hexToBytes } from '../bytes.js';
import { toSecretKeyBytes, type SecretKeyInput } from '../crypto/keys.js';
import { signTx } from '../crypto/sign-tx.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { toBigInt } from './api-json.js';
import type { TpkitClient } from './client.js';
import { TxFailedError } from './client-errors.js';
import { DEFAULT_MAX_FEE, boundedAutoFee, chooseFeeCurrency, feeRates, optionalSettings } from './fee.js';
import type { TxStatus } from './responses.js';

export interface ContractTxOptions {
  client: TpkitClient;
  secretKey: SecretKeyInput;
  /** The sender wallet (for a deploy: the wallet that becomes the contract). */
  from: string | Uint8Array;
  /** Gas to buy (default 10^7), paid in `gasCurrency` at the node's `current.gas` rate; what is not used comes back. */
  gas?: bigint;
  /** Default: SK when the node prices gas in it, else its first gas currency. */
  gasCurrency?: string;
  /** SK sent with the call (msg.value). */
  value?: bigint;
  /** 'auto' (default): the node's fee for this body; a bigint: that srcfee amount (0n: none). */
  fee?: 'auto' | bigint;
  /** The largest fee 'auto' pays (default 10^12), as for a transfer: more is FEE_TOO_HIGH, nothing signed. */
  maxFee?: bigint;
  feeCurrency?: string;
  seq?: bigint;
  timestamp?: number;
  /** Wait for the block (default true). */
  wait?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ContractTxResult {
  txid: string;
  seq: bigint;
  /** Units of the gas currency offered (the unused part is returned by the node). */
  gasOffered: bigint;
  gasCurrency: string;
  fee: bigint;
  feeCurrency?: string;
  /** The included result (when waited for). */
  status?: TxStatus;
  tx: Uint8Array;
}

const DEFAULT_GAS = 10_000_000n;

function address(value: string | Uint8Array, label: string): Uint8Array {
  return typeof value === 'string' ? addressFromText(value) : expectBytes(value, label, 8);
}

/** Units of `currency` that buy `gas` at the node's rate (rounded up). */
async function gasPayment(client: TpkitClient, gas: bigint, asked: string | undefined, signal: AbortSignal | undefined): Promise<{ currency: string; amount: bigint }> {
  const settings = (await optionalSettings(client, 'current/gas', signal)) as Record<string, unknown> | undefined;
  const rates = new Map<string, { tokens: bigint; gas: bigint }>();
  for (const [cur, v] of Object.entries(settings ?? {})) {
    const number = toBigInt(v);
    if (number !== undefined && number > 0n) rates.set(cur, { tokens: 1n, gas: number });
    else if (v && typeof v === 'object') {
      const tokens = toBigInt((v as Record<string, unknown>).tokens);
      const g = toBigInt((v as Record<string, unknown>).gas);
      if (tokens !== undefined && g !== undefined && tokens > 0n && g > 0n) rates.set(cur, { tokens, gas: g });
    }
  }
  const currency = asked ?? (rates.has('SK') ? 'SK' : rates.keys().next().value);
  const rate = currency === undefined ? undefined : rates.get(currency);
  if (currency === undefined || !rate) {
    throw new TpkitError('FEE_UNKNOWN', 'The node prices no gas in that currency', { details: `current.gas has ${[...rates.keys()].join(', ') || 'no rates'}${asked ? `; asked for ${asked}` : ''}` });
  }
  return { currency, amount: (gas * rate.tokens + rate.gas - 1n) / rate.gas };
}

async function sendContractTx(options: ContractTxOptions, encode: (payload: PayloadItemInput[], seq: bigint, timestamp: number) => Uint8Array): Promise<ContractTxResult> {
  const { client, signal } = options;
  const gas = options.gas ?? DEFAULT_GAS;
  if (typeof gas !== 'bigint' || gas <= 0n) throw new ArgumentError(`"gas" expected a positive bigint, got ${String(gas)}`);
  const value = options.value ?? 0n;
  if (typeof value !== 'bigint' || value < 0n) throw new ArgumentError(`"value" expected a bigint >= 0, got ${String(value)}`);
  const fee = options.fee ?? 'auto';
  if (fee !== 'auto' && (typeof fee !== 'bigint' || fee < 0n)) throw new ArgumentError(`"fee" expected 'auto' or a bigint >= 0, got ${String(fee)}`);
  const maxFee = options.maxFee ?? DEFAULT_MAX_FEE;
  if (typeof maxFee !== 'bigint' || maxFee < 0n) throw new ArgumentError(`"maxFee" expected a bigint >= 0, got ${String(maxFee)}`);
  const secretKey = toSecretKeyBytes(options.secretKey, 'secretKey');
  const from = address(options.from, 'from');
  client.checkTransport();
  const seq = options.seq ?? (await client.getSeq(from, { signal })) + 1n;
  const timestamp = options.timestamp ?? Date.now();
  const paid = await gasPayment(client, gas, options.gasCurrency, signal);
  const payload: PayloadItemInput[] = [];
  if (value > 0n) payload.push({ purpose: 'transfer', currency: 'SK', amount: value });
  payload.push({ purpose: 'gas', currency: paid.currency, amount: paid.amount });
  let feeAmount = 0n;
  let feeCurrency: string | undefined;
  if (fee === 'auto') {
    const rates = feeRates(await optionalSettings(client, 'current/fee', signal));
    feeCurrency = chooseFeeCurrency(rates, paid.currency, options.feeCurrency);
    if (feeCurrency !== undefined) feeAmount = boundedAutoFee((p) => encode(p, seq, timestamp), payload, feeCurrency, rates.get(feeCurrency)!, maxFee);
  } else if (fee > 0n) {
    feeAmount = fee;
    feeCurrency = options.feeCurrency ?? paid.currency;
  }
  if (feeCurrency !== undefined) payload.push({ purpose: 'srcfee', currency: feeCurrency, amount: feeAmount });
  const tx = signTx(encode(payload, seq, timestamp), secretKey, { timestamp });
  const txid = await client.submitTx(tx, { signal });
  const result: ContractTxResult = { txid, seq, gasOffered: paid.amount, gasCurrency: paid.currency, fee: feeAmount, tx };
  if (feeCurrency !== undefined) result.feeCurrency = feeCurrency;
  if (options.wait === false) return result;
  const status = await client.waitForTx(txid, { signal, timeoutMs: options.timeoutMs });
  if (!status.ok) throw new TxFailedError(txid, status.revert === undefined ? status.reason : `${status.reason}: ${status.revert}`);
  result.status = status;
  return result;
}

/** Deploys `code` (with ABI-encoded constructor `args`) at the sender's own address. */
export async function deployContract(options: ContractTxOptions & { code: Uint8Array | string; args?: Uint8Array | string }): Promise<ContractTxResult & { address: string }> {
  const code = typeof options.code === 'string' ? hexToBytes(options.code) : expectBytes(options.code, 'code');
  const args = options.args === undefined ? undefined : typeof options.args === 'string' ? hexToBytes(options.args) : expectBytes(options.args, 'args');
  const from = address(options.from, 'from');
  const result = await sendContractTx(options, (payload, seq, timestamp) => deployBody({ from, seq, timestamp, payload, code, args }));
  return { ...result, address: addressToText(from) };
}

/** Calls the contract at `to` with `data` (ABI-encoded calldata); the result's returnData is what the call returned. */
export async function sendContractCall(options: ContractTxOptions & { to: string | Uint8Array; data: Uint8Array | string }): Promise<ContractTxResult & { returnData?: Uint8Array }> {
  const data = typeof options.data === 'string' ? hexToBytes(options.data) : expectBytes(options.data, 'data');
  const from = address(options.from, 'from');
  const to = address(options.to, 'to');
  const result = await sendContractTx(options, (payload, seq, timestamp) => genericBody({ from, to, seq, timestamp, payload, call: { method: '0x0', args: [data] } }));
  const retval = result.status?.ok ? result.status.retval : undefined;
  return retval === undefined ? result : { ...result, returnData: hexToBytes(retval) };
}
