// GET logs/{hash} and logs_height/{h}, streamed: a block's event record is read from the store
// once (and shared by the readers of that block at the same time), then each event is parsed,
// written into 64 KiB chunks and handed to the reader, with the backpressure and stall limit of
// block answers. The bytes are those of the answer once built whole (toJson of one object).

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { encodeMsgpack } from '../../codec/msgpack-write.js';
import { TpkitError } from '../../errors.js';
import { JsonBytesWriter } from '../base/json-bytes.js';
import { arrayElements, MalformedJson } from '../base/json-elements.js';
import type { BlockRecord } from '../ledger/block.js';
import type { StoredLog } from '../evm/logs.js';
import type { Reply } from '../http/server.js';
import type { Store } from '../store/store.js';
import { logsKey } from '../store/keys.js';

const text = new TextDecoder();

/** A block's event record as stored, with the byte ranges of its events. */
export interface LogRecord {
  bytes: Uint8Array;
  /** Start and end offsets of each event, two numbers an event. */
  ranges: Uint32Array;
}

/** The number of events in `record`. */
export const logCount = (record: LogRecord | undefined): number => (record ? record.ranges.length / 2 : 0);

/** Event `i` of `record`, parsed. */
export function logAt(record: LogRecord, i: number): StoredLog {
  return JSON.parse(text.decode(record.bytes.subarray(record.ranges[2 * i], record.ranges[2 * i + 1]))) as StoredLog;
}

/**
 * Reads the event records of blocks; readers of the same block at once share one copy of its
 * record (held only through them, so it goes when the last one is done).
 */
export class LogRecords {
  private readonly held = new Map<string, WeakRef<LogRecord>>();
  private readonly gone = new FinalizationRegistry<string>((key) => {
    if (this.held.get(key)?.deref() === undefined) this.held.delete(key);
  });

  /** Reads under way, by key: a reader that comes meanwhile waits for the same one. */
  private readonly reading = new Map<string, Promise<LogRecord | undefined>>();

  constructor(private readonly store: Store) {}

  /** The record of the block at `height` whose hash is `hash`; undefined when it has no events. */
  async read(height: number, hash: string): Promise<LogRecord | undefined> {
    // Keyed by the hash too: after a rollback another block may hold the height.
    const key = `${height}:${hash}`;
    const shared = this.held.get(key)?.deref();
    if (shared) return shared;
    // Readers that arrive together wait for one read: each its own would hold one copy apiece.
    let reading = this.reading.get(key);
    if (!reading) {
      reading = this.readRecord(key, height).finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    return reading;
  }

  private async readRecord(key: string, height: number): Promise<LogRecord | undefined> {
    const bytes = await this.store.get(logsKey(height));
    if (!bytes) return undefined;
    const record = { bytes, ranges: eventRanges(bytes, height) };
    this.held.set(key, new WeakRef(record));
    this.gone.register(record, key);
    return record;
  }
}

/** Where each event lies in the record; the record is checked whole before any answer starts. */
function eventRanges(bytes: Uint8Array, height: number): Uint32Array {
  const offsets: number[] = [];
  try {
    for (const [start, end] of arrayElements(bytes, 'logs')) offsets.push(start, end);
  } catch (err) {
    if (!(err instanceof MalformedJson)) throw err;
    throw new TpkitError('NODE_INTERNAL', 'The event record of a block is damaged', { details: `height ${height}: ${err.message}` });
  }
  return Uint32Array.from(offsets);
}

/** An event as the reference packs it: MessagePack [txid, "evm", contract, caller, data, topics], in hex. */
function packed(l: StoredLog): string {
  return '0x' + bytesToHex(encodeMsgpack([l.txid, 'evm', hexToBytes(l.address), hexToBytes(l.caller), hexToBytes(l.data), l.topics.map((t) => hexToBytes(t))]));
}

function decoded(l: StoredLog): { [key: string]: string | number | string[] } {
  return { txid: l.txid, address: '0x' + l.address, caller: '0x' + l.caller, topics: l.topics.map((t) => '0x' + t), data: '0x' + l.data, logIndex: l.logIndex };
}

/**
 * The reference's answer, `{"result":"ok","log":{"blkid","height","logs":[packed…]},"events":
 * [decoded…],"ok":true}`, written one event at a time: the events are walked twice, once for
 * each list, so no list of them is ever held.
 */
export function logsReply(block: BlockRecord, record: LogRecord | undefined): Reply {
  return {
    json: {
      stream: async (write) => {
        const out = new JsonBytesWriter();
        const flush = async () => {
          const chunks = out.take();
          if (chunks.length > 0) await write(chunks);
        };
        const n = logCount(record);
        out.text('{').member('result', 'ok', true).text(',"log":{').member('blkid', block.hash, true).member('height', block.header.height).text(',"logs":[');
        for (let i = 0; i < n; i++) {
          if (i > 0) out.text(',');
          out.value(packed(logAt(record!, i)));
          await flush();
        }
        out.text(']},"events":[');
        for (let i = 0; i < n; i++) {
          if (i > 0) out.text(',');
          out.value(decoded(logAt(record!, i)));
          await flush();
        }
        await write(out.text('],"ok":true}').finish().chunks);
      },
    },
  };
}
