// The test controls of a local tpkit node (/api/dev): snapshots and revert, rollback, the
// node clock, direct state setting and injected faults. A wallet's test suite calls them
// between tests; a network node has none of them (404).

import { addressFromText, addressToText } from '../codec/address.js';
import { bytesToHex } from '../bytes.js';
import { toBigInt } from './api-json.js';
import type { FaultRule, InstalledFault } from '../dev-wire.js';
import { requestJson, type CallOptions as Call, type HttpSettings, type JsonObject } from './http.js';

export interface Snapshot {
  id: string;
  name?: string;
  height: number;
  createdAt: number;
}

export interface ChainMoved {
  height: number;
  hash: string;
  /** The node clock after the change, ms since the epoch. */
  now: number;
  clockOffsetMs: number;
}

/** A fault rule as the node takes it (docs/guide/dev-controls.md, "Fault rules"). */
export type FaultRuleSpec = FaultRule;
/** A rule the node holds, with its id and how often it fired. */
export type Fault = InstalledFault;

export interface DevControlApi {
  /** Records the whole state; returns its id (a name given again moves to the new one). */
  snapshot(name?: string, options?: Call): Promise<Snapshot>;
  snapshots(options?: Call): Promise<Snapshot[]>;
  /** Back to a snapshot (id or name); it stays valid for another revert. */
  revert(idOrName: string, options?: Call): Promise<ChainMoved>;
  deleteSnapshot(idOrName: string, options?: Call): Promise<void>;
  /** Drops the blocks above `height`; their transactions become unknown. */
  rollback(height: number, options?: Call): Promise<ChainMoved>;
  /** Moves the node clock: an offset from the system clock, or a time. */
  setTime(to: { offsetMs: number } | { setMs: number }, options?: Call): Promise<ChainMoved>;
  time(options?: Call): Promise<{ now: number; offsetMs: number }>;
  /** Sets a balance to exactly `amount`, without a block. */
  setBalance(address: string | Uint8Array, amount: bigint | number, options?: Call & { currency?: string }): Promise<void>;
  setSeq(address: string | Uint8Array, seq: bigint | number, options?: Call): Promise<void>;
  /** A wallet without mining; resolves to its text address. */
  createWallet(spec: { publicKey: string | Uint8Array; address?: string } | { address: string }, options?: Call): Promise<string>;
  addFaults(rules: FaultRuleSpec | FaultRuleSpec[], options?: Call): Promise<Fault[]>;
  faults(options?: Call): Promise<Fault[]>;
  /** Removes the rules with these ids, or all of them. */
  clearFaults(ids?: number[], options?: Call): Promise<number>;
}

const textAddress = (a: string | Uint8Array) => (typeof a === 'string' ? addressToText(addressFromText(a)) : addressToText(a));
const snapshotFrom = (o: JsonObject): Snapshot => ({ id: String(o.id), ...(typeof o.name === 'string' ? { name: o.name } : {}), height: Number(o.height), createdAt: Number(o.createdAt) });
const movedFrom = (o: JsonObject): ChainMoved => ({ height: Number(o.height), hash: String(o.hash), now: Number(o.now), clockOffsetMs: Number(o.clockOffsetMs) });
const faultFrom = (o: JsonObject): Fault => ({ ...(o as unknown as Fault), id: Number(o.id), fired: Number(toBigInt(o.fired) ?? 0n) });

export function devControlApi(http: HttpSettings): DevControlApi {
  const post = (name: string, json: unknown, call: Call = {}) => requestJson(http, `/api/dev/${name}`, { method: 'POST', json, signal: call.signal });
  const get = (name: string, call: Call = {}) => requestJson(http, `/api/dev/${name}`, { signal: call.signal });
  return {
    snapshot: async (name, call) => snapshotFrom(await post('snapshot', name === undefined ? {} : { name }, call)),
    snapshots: async (call) => ((await get('snapshot', call)).snapshots as JsonObject[]).map(snapshotFrom),
    revert: async (id, call) => movedFrom(await post('revert', { id }, call)),
    async deleteSnapshot(id, call) {
      await post('snapshot', { delete: id }, call);
    },
    rollback: async (height, call) => movedFrom(await post('rollback', { height }, call)),
    setTime: async (to, call) => movedFrom(await post('time', to, call)),
    async time(call) {
      const o = await get('time', call);
      return { now: Number(o.now), offsetMs: Number(o.offsetMs) };
    },
    async setBalance(address, amount, call = {}) {
      await post('setBalance', { address: textAddress(address), currency: call.currency ?? 'SK', amount: String(amount) }, call);
    },
    async setSeq(address, seq, call) {
      await post('setSeq', { address: textAddress(address), seq: String(seq) }, call);
    },
    async createWallet(spec, call) {
      const body: JsonObject = {};
      if ('publicKey' in spec) body.publicKey = typeof spec.publicKey === 'string' ? spec.publicKey : bytesToHex(spec.publicKey);
      if (spec.address !== undefined) body.address = textAddress(spec.address);
      return String((await post('createWallet', body, call)).address);
    },
    addFaults: async (rules, call) => ((await post('faults', { rules: Array.isArray(rules) ? rules : [rules] }, call)).added as JsonObject[]).map(faultFrom),
    faults: async (call) => ((await get('faults', call)).faults as JsonObject[]).map(faultFrom),
    clearFaults: async (ids, call) => Number((await post('faults', { clear: ids ?? true }, call)).cleared),
  };
}
