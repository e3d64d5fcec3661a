// Events as a block keeps them (`l:<height>` in the store, one JSON record per block with
// events) and the filter of eth_getLogs: an address or list of addresses, and topics by
// position, each null (any), one topic, or a list of alternatives.

import { bytesToHex } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import { parseEvmAddress } from './address.js';
import type { EvmRun } from './runner.js';
import { emptyChanges } from './state.js';

/**
 * Events one transaction may emit. A run that emits more fails ("too_many_events", all its
 * gas spent, as a run out of gas), so a receipt and a block's event record stay bounded.
 */
export const MAX_EVENTS_PER_TX = 10_000;

/** `run`, or its failure when it emitted more than MAX_EVENTS_PER_TX events. */
export function capEvents(run: EvmRun, gasLimit: bigint): EvmRun {
  if (run.end !== 'return' || run.logs.length <= MAX_EVENTS_PER_TX) return run;
  return { ...run, end: 'error', error: 'too_many_events', gasUsed: gasLimit, returnData: new Uint8Array(0), logs: [], changes: emptyChanges() };
}

/** One event, with where it came from. Hex fields are lowercase without 0x. */
export interface StoredLog {
  txid: string;
  /** The transaction's position in its block. */
  txIndex: number;
  /** The event's position among the block's events. */
  logIndex: number;
  /** The contract that emitted it (EVM key) and the transaction's sender (EVM key). */
  address: string;
  caller: string;
  topics: string[];
  data: string;
}

export interface BlockLogs {
  height: number;
  /** Block hash, uppercase hex as the block's own `hash`. */
  hash: string;
  logs: StoredLog[];
}

export function storedLog(at: { txid: string; txIndex: number; logIndex: number; caller: string }, log: { address: string; topics: Uint8Array[]; data: Uint8Array }): StoredLog {
  return { ...at, address: log.address, topics: log.topics.map((t) => bytesToHex(t)), data: bytesToHex(log.data) };
}

export interface LogFilter {
  addresses?: Set<string>;
  /** Per position: undefined (any) or the accepted topics. */
  topics: (Set<string> | undefined)[];
}

const TOPIC = /^0x[0-9a-fA-F]{64}$/;

function topicOf(value: unknown, field: string): string {
  if (typeof value !== 'string' || !TOPIC.test(value)) {
    throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, { field, details: `expected 0x and 64 hex digits, got ${JSON.stringify(value)?.slice(0, 80)}` });
  }
  return value.slice(2).toLowerCase();
}

export function parseLogFilter(input: { address?: unknown; topics?: unknown }): LogFilter {
  let addresses: Set<string> | undefined;
  if (input.address !== undefined && input.address !== null) {
    const list = Array.isArray(input.address) ? input.address : [input.address];
    addresses = new Set(list.map((a, i) => parseEvmAddress(a, `address[${i}]`)));
  }
  const topics: LogFilter['topics'] = [];
  if (input.topics !== undefined && input.topics !== null) {
    if (!Array.isArray(input.topics) || input.topics.length > 4) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "topics"', { field: 'topics', details: 'expected an array of at most 4 entries' });
    }
    input.topics.forEach((t, i) => {
      if (t === null) topics.push(undefined);
      else if (Array.isArray(t)) topics.push(new Set(t.map((x) => topicOf(x, `topics[${i}]`))));
      else topics.push(new Set([topicOf(t, `topics[${i}]`)]));
    });
  }
  return { addresses, topics };
}

export function matchesLog(filter: LogFilter, log: StoredLog): boolean {
  if (filter.addresses && !filter.addresses.has(log.address)) return false;
  for (let i = 0; i < filter.topics.length; i++) {
    const accepted = filter.topics[i];
    if (accepted && (i >= log.topics.length || !accepted.has(log.topics[i]))) return false;
  }
  return true;
}
