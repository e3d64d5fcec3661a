// The API answers as typed values. A node that answers with the wrong shape gets a
// BAD_RESPONSE error naming the field, rather than an `undefined` deep in a wallet.

import { hexToBytes } from '../bytes.js';
import { TpkitError } from '../errors.js';
import { toBigInt } from './api-json.js';
import type { JsonObject } from './http.js';

/** A wallet record (spec 2.1) with exact integers. */
export interface WalletInfo {
  /** Text address. */
  address: string;
  /** 0x-prefixed hex address. */
  hex: string;
  /** Balance per currency. */
  amount: Record<string, bigint>;
  seq: bigint;
  /** Time of the wallet's last transaction, ms. */
  t: number;
  lastblk: string;
  preblk: string;
  /** Public key in the requested format ('' when the node has none). */
  pubkey: string;
  /** The node's record as sent. */
  raw: JsonObject;
}

/** A transaction's result once included: ok with `res` ('ok' or the new address), or failed with a reason. */
export type TxStatus =
  | { ok: true; res: string; address?: string; block?: string; /** A contract call's return data, 0x hex. */ retval?: string; raw: unknown }
  | { ok: false; reason: string; block?: string; /** A reverted contract call's reason (or 0x hex of its data). */ revert?: string; raw: unknown };

export interface NodeStatus {
  chain: number;
  height: number;
  /** Hash of the last block, uppercase hex. */
  hash: string;
  nodename?: string;
  /**
   * How a local tpkit node makes blocks: every blocktime while transactions wait, as soon
   * as they arrive, or only when asked (`tpkit dev mine`). Absent on other nodes.
   */
  blocks?: 'interval' | 'instant' | 'on-demand';
  raw: JsonObject;
}

function badResponse(request: string, field: string, expected: string, value: unknown): TpkitError {
  return new TpkitError('BAD_RESPONSE', 'Node answer has an unexpected shape', {
    details: `${request}: "${field}" expected ${expected}, got ${value === null ? 'null' : typeof value}`,
    field,
  });
}

function object(value: unknown, request: string, field: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badResponse(request, field, 'an object', value);
  return value as JsonObject;
}

function string(value: unknown, request: string, field: string): string {
  if (typeof value !== 'string') throw badResponse(request, field, 'a string', value);
  return value;
}

function integer(value: unknown, request: string, field: string): bigint {
  const n = toBigInt(value);
  if (n === undefined) throw badResponse(request, field, 'an integer', value);
  return n;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function walletInfoFrom(answer: JsonObject, request: string): WalletInfo {
  const info = object(answer.info, request, 'info');
  const amounts = object(info.amount ?? {}, request, 'info.amount');
  const amount: Record<string, bigint> = {};
  for (const [currency, value] of Object.entries(amounts)) amount[currency] = integer(value, request, `info.amount.${currency}`);
  return {
    address: string(answer.txtaddress, request, 'txtaddress'),
    hex: optionalString(answer.address) ?? '',
    amount,
    seq: integer(info.seq ?? 0, request, 'info.seq'),
    t: Number(integer(info.t ?? 0, request, 'info.t')),
    lastblk: optionalString(info.lastblk) ?? '',
    preblk: optionalString(info.preblk) ?? '',
    pubkey: optionalString(info.pubkey) ?? '',
    raw: info,
  };
}

/** The status answer: `res` (reference node) or `Res` (spec); null until included. */
export function txStatusFrom(answer: JsonObject, request: string): TxStatus | null {
  const result = 'res' in answer ? answer.res : answer.Res;
  if (result === null || result === undefined) return null;
  const r = object(result, request, 'res');
  if (r.error === true || r.ok === false) {
    const failed: TxStatus = { ok: false, reason: optionalString(r.res) ?? optionalString(r.reason) ?? 'error', raw: r };
    const block = optionalString(r.block);
    const revert = optionalString(r.revert);
    if (block !== undefined) failed.block = block;
    if (revert !== undefined) failed.revert = revert;
    return failed;
  }
  const status: TxStatus = { ok: true, res: string(r.res, request, 'res.res'), raw: r };
  const address = optionalString(r.address);
  const block = optionalString(r.block);
  const retval = optionalString(r.retval);
  if (address !== undefined) status.address = address;
  if (block !== undefined) status.block = block;
  if (retval !== undefined) status.retval = retval;
  return status;
}

export function nodeStatusFrom(answer: JsonObject, request: string): NodeStatus {
  const status = object(answer.status, request, 'status');
  const blockchain = object(status.blockchain, request, 'status.blockchain');
  const header = object(blockchain.header, request, 'status.blockchain.header');
  const out: NodeStatus = {
    chain: Number(integer(header.chain ?? blockchain.chain, request, 'status.blockchain.header.chain')),
    height: Number(integer(header.height, request, 'status.blockchain.header.height')),
    hash: optionalString(blockchain.hash) ?? '',
    raw: status,
  };
  const nodename = optionalString(status.nodename);
  if (nodename !== undefined) out.nodename = nodename;
  const blocks = (status.tpkit as JsonObject | null | undefined)?.blocks;
  if (blocks === 'interval' || blocks === 'instant' || blocks === 'on-demand') out.blocks = blocks;
  return out;
}

export function seqFrom(answer: JsonObject, request: string): bigint {
  return integer(answer.seq, request, 'seq');
}

export function txidFrom(answer: JsonObject, request: string): string {
  return string(answer.txid, request, 'txid');
}

export function contractViewFrom(answer: JsonObject, request: string): { result: 'return' | 'revert' | 'error'; data: Uint8Array; gasUsed: bigint; reason?: string; raw: JsonObject } {
  const result = answer.result;
  if (result !== 'return' && result !== 'revert' && result !== 'error') throw badResponse(request, 'result', '"return", "revert" or "error"', result);
  const bin = optionalString(answer.bin) ?? '0x';
  if (!/^0x([0-9a-fA-F]{2})*$/.test(bin)) throw badResponse(request, 'bin', '0x and hex digits', bin);
  const view: { result: typeof result; data: Uint8Array; gasUsed: bigint; reason?: string; raw: JsonObject } = {
    result,
    data: hexToBytes(bin),
    gasUsed: answer.gas_used === undefined ? 0n : integer(answer.gas_used, request, 'gas_used'),
    raw: answer,
  };
  const reason = optionalString(answer.decode) ?? optionalString(answer.error);
  if (reason !== undefined) view.reason = reason;
  return view;
}
