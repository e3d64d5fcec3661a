// JSON shapes of the API answers (spec 2.1/2.2 and the reference node's field names). Hashes
// and keys are uppercase hex, as the reference prints them; amounts are exact integers.

import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '../../bytes.js';
import { isEthTx } from '../evm/eth-tx.js';
import { addressToHex, addressToText, parseAddress } from '../../codec/address.js';
import { decodeBody } from '../../codec/body-decode.js';
import { decodeDeployBody } from '../../codec/body-deploy-decode.js';
import type { PayloadItem } from '../../codec/body-types.js';
import { decodeTx } from '../../codec/container.js';
import { MsgExt, MsgFloat, Uint64, type MsgValue } from '../../codec/msgpack-types.js';
import { decodeBsig } from '../../crypto/bsig-tlv.js';
import { publicKeyToPem } from '../../crypto/pem.js';
import type { BlockRecord } from '../ledger/block.js';
import type { JsonValue } from '../base/json.js';
import type { Wallet } from '../ledger/wallet.js';

const isZero = (hash: Uint8Array) => hash.every((b) => b === 0);

/**
 * The wallet record (spec 2.1) with the fields a plain wallet has in the reference node:
 * `lastblk` the block that last changed it, `preblk` the change before (absent until there is
 * one), `lastblock.tx` the height of `lastblk` (the reference's current field, where
 * PowerWallet starts its history), `pubkey` (absent on a keyless wallet), `seq` and `t`; a
 * wallet with contract code also has the reference's `vm` ("evm"), `code` (its size), `state`
 * (its slot count) and `contract` (["evm", "EVM"]).
 */
export function walletInfo(w: Wallet, pubkeyFormat: string | null, contract?: { codeSize: number; slots: number }): { [key: string]: JsonValue } {
  const amount: { [key: string]: JsonValue } = {};
  for (const [cur, value] of w.amount) amount[cur] = value;
  const info: { [key: string]: JsonValue } = { amount, lastblk: bytesToHex(w.lastblk, true), lastblock: { tx: w.height } };
  if (!isZero(w.preblk)) info.preblk = bytesToHex(w.preblk, true);
  if (w.pubkey) info.pubkey = pubkeyFormat === 'pem' ? publicKeyToPem(w.pubkey) : pubkeyFormat === 'b64' ? Buffer.from(w.pubkey).toString('base64') : bytesToHex(w.pubkey, true);
  info.seq = w.seq;
  info.t = w.t;
  if (contract) {
    info.vm = 'evm';
    info.code = contract.codeSize;
    info.state = contract.slots;
    info.contract = ['evm', 'EVM'];
  }
  return info;
}

/** Envelope 2.2: the result, `address` as 0x hex and `txtaddress` as text. */
export function withAddress(address: Uint8Array, body: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return { ...body, address: addressToHex(address), txtaddress: addressToText(address), ok: true };
}

export function headerView(r: BlockRecord): { [key: string]: JsonValue } {
  return { ...r.header, roots: { ...r.header.roots } };
}

/**
 * A wallet as a block lists it under `bals`, keyed by uppercase address hex. As in the
 * reference, `lastblk` there is the block that changed the wallet before this one (absent on
 * its first change), so a wallet's history is a chain from its address view's `lastblk` back
 * through the blocks. The stored record holds this block as `lastblk` and that one as `preblk`.
 */
export function storedWalletView(stored: unknown): JsonValue {
  const s = stored as { pubkey: string | null; amount: Record<string, string>; seq: string; t: number; lastblk: string; preblk: string };
  const amount: { [key: string]: JsonValue } = {};
  for (const [cur, v] of Object.entries(s.amount)) amount[cur] = BigInt(v);
  const view: { [key: string]: JsonValue } = { amount };
  if (s.pubkey) view.pubkey = s.pubkey.toUpperCase();
  view.seq = BigInt(s.seq);
  view.t = s.t;
  if (!/^0*$/.test(s.preblk)) view.lastblk = s.preblk.toUpperCase();
  return view;
}

/** A MessagePack value (body `e`, call args) as JSON: bytes as 0x hex, exact integers. */
export function msgValueJson(value: MsgValue): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return '0x' + bytesToHex(value, true);
  if (value instanceof MsgFloat) return value.value;
  if (value instanceof Uint64) return value.value;
  if (value instanceof MsgExt) return { ext: value.extType, data: '0x' + bytesToHex(value.data, true) };
  if (Array.isArray(value)) return value.map(msgValueJson);
  const out: { [key: string]: JsonValue } = {};
  const entries: Iterable<[unknown, MsgValue]> = value instanceof Map ? value : Object.entries(value);
  for (const [k, v] of entries) out[k instanceof Uint8Array ? '0x' + bytesToHex(k, true) : String(k)] = msgValueJson(v);
  return out;
}

/** A signature of a stored transaction: every one was decoded when the transaction was accepted. */
function signatureView(bsig: Uint8Array): JsonValue {
  const d = decodeBsig(bsig);
  const extra: { [key: string]: JsonValue } = { pubkey: bytesToHex(d.publicKey, true) };
  if (d.timestamp !== undefined) extra.timestamp = d.timestamp;
  return { signature: bytesToHex(d.signature, true), extra };
}

function payloadView(payload: readonly PayloadItem[]): JsonValue {
  return payload.map((p) => ({ purpose: p.purpose, cur: p.currency, amount: p.amount }));
}

/**
 * `from`/`to` of a transaction view as the reference node's current API writes them: "0x" +
 * lowercase hex (its default `bin=hex` packer), the form PowerWallet matches. txView keeps the
 * uppercase hex the SDK 2.1 converts with hexToTextAddress, which cannot read a "0x".
 */
export function withReferenceAddresses(view: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  for (const field of ['from', 'to']) {
    const value = view[field];
    if (typeof value === 'string') view[field] = `0x${value.toLowerCase()}`;
  }
  return view;
}

/** A stored transaction as block answers list it (after the reference node's prettify_tx). */
export function txView(raw: Uint8Array, registeredAddress?: string): { [key: string]: JsonValue } {
  // An Ethereum transaction (eth_sendRawTransaction): its hash and bytes; eth_getTransactionByHash decodes it.
  if (isEthTx(raw)) return { kind: 'ether', ver: 2, hash: '0x' + bytesToHex(keccak_256(raw)), body: bytesToHex(raw, true) };
  const container = decodeTx(raw);
  const body = decodeBody(container.body);
  const out: { [key: string]: JsonValue } = { kind: body.kind, ver: container.ver };
  switch (body.kind) {
    case 'generic':
    case 'notify':
      out.from = bytesToHex(body.from, true);
      if (body.kind === 'generic') out.to = bytesToHex(body.to, true);
      out.seq = body.seq;
      out.t = body.timestamp;
      out.payload = payloadView(body.payload);
      if (body.call) out.call = { function: body.call.method, args: body.call.args.map(msgValueJson) };
      if (body.extra) out.txext = msgValueJson(body.extra);
      break;
    case 'register':
      out.keysh = bytesToHex(body.keysHash, true);
      out.t = body.timestamp;
      if (registeredAddress) {
        // The reference's extdata; `address` (hex) is what the official SDK reads.
        const hex = addressToHex(parseAddress(registeredAddress)).slice(2).toUpperCase();
        out.extdata = { 'addr.txt': registeredAddress, addr: hex };
        out.address = hex;
      }
      break;
    case 'chkey':
      out.from = bytesToHex(body.from, true);
      out.seq = body.seq;
      out.t = body.timestamp;
      out.keys = body.publicKeys.map((k) => bytesToHex(k, true));
      break;
    case 'deploy': {
      const deploy = decodeDeployBody(body);
      out.from = bytesToHex(deploy.from, true);
      out.to = out.from;
      out.seq = deploy.seq;
      out.t = deploy.timestamp;
      out.payload = payloadView(deploy.payload);
      out.txext = { vm: deploy.vm, code: deploy.code.length };
      break;
    }
    default:
      break;
  }
  out.body = bytesToHex(container.body, true);
  out.sig = container.sigs.map(signatureView);
  return out;
}
