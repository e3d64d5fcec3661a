// Snapshots of the whole store, for test suites that start each test from a known chain. While
// at least one snapshot exists, every batch also writes, in the same atomic batch, an undo
// record (`j:<n>`) holding the previous value of each key it touches. A snapshot is the number
// of the last undo record at the moment it was taken; reverting to it replays the later undo
// records backwards in one batch. The cost of a revert is the number of keys changed since the
// snapshot, never the length of the chain, and a node without snapshots writes nothing extra.
// Snapshot records (`snap:<id>`) and undo records live in the store itself, so a data dir keeps
// them across a restart or a SIGKILL; on the in-memory store they last as long as the node.
//
// Keys of its own:
//   journal       {"seq": last undo record, "nextId": next snapshot id} (JSON)
//   j:<n>         undo record n, n as 12 hex digits so records sort in order
//   snap:<id>     snapshot (JSON: id, name, seq, height, createdAt)

import { ValidationError } from '../../errors.js';
import type { Store, StoreOp } from './store.js';

export interface SnapshotInfo {
  id: string;
  name?: string;
  /** Undo records before it. */
  seq: number;
  /** Chain height when it was taken. */
  height: number;
  /** Wall time when it was taken, ms since the epoch. */
  createdAt: number;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();
const recordKey = (n: number) => 'j:' + n.toString(16).padStart(12, '0');
const NAME = /^[A-Za-z_][\w.-]{0,63}$/;
/** Each snapshot costs little, but a loop that takes one per request must not grow without end. */
const MAX_SNAPSHOTS = 1000;

/**
 * One undo record: for each key, its value before the batch. Binary, as a revert of a long
 * chain decodes thousands of them: per key, u16 key length, the key (UTF-8), u32 value length
 * plus one (0: the key did not exist), the value.
 */
function encodeUndo(keys: string[], before: (Uint8Array | undefined)[]): Uint8Array {
  const encodedKeys = keys.map((k) => Buffer.from(k));
  let size = 0;
  for (let i = 0; i < keys.length; i++) size += 6 + encodedKeys[i].length + (before[i]?.length ?? 0);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < keys.length; i++) {
    at = out.writeUInt16BE(encodedKeys[i].length, at);
    at += encodedKeys[i].copy(out, at);
    const value = before[i];
    at = out.writeUInt32BE(value === undefined ? 0 : value.length + 1, at);
    if (value) {
      out.set(value, at);
      at += value.length;
    }
  }
  return out;
}

function decodeUndo(bytes: Uint8Array, into: (key: string, value: Uint8Array | undefined) => void): void {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < buf.length;) {
    const keyLength = buf.readUInt16BE(at);
    const key = buf.toString('utf8', at + 2, at + 2 + keyLength);
    at += 2 + keyLength;
    const length = buf.readUInt32BE(at);
    at += 4;
    if (length === 0) into(key, undefined);
    else {
      into(key, buf.subarray(at, at + length - 1));
      at += length - 1;
    }
  }
}

export class JournalStore implements Store {
  readonly persistent: boolean;
  private seq = 0;
  private nextId = 1;
  private readonly snapshots = new Map<string, SnapshotInfo>();
  /** Batches run one at a time while journaling, so each undo record sees the value before it. */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly inner: Store) {
    this.persistent = inner.persistent;
  }

  static async open(inner: Store): Promise<JournalStore> {
    const store = new JournalStore(inner);
    const head = await inner.get('journal');
    if (head) {
      const parsed = JSON.parse(text.decode(head)) as { seq: number; nextId: number };
      store.seq = parsed.seq;
      store.nextId = parsed.nextId;
    }
    for await (const [, value] of inner.entries('snap:')) {
      const info = JSON.parse(text.decode(value)) as SnapshotInfo;
      store.snapshots.set(info.id, info);
    }
    return store;
  }

  get(key: string): Promise<Uint8Array | undefined> {
    return this.inner.get(key);
  }

  getMany(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    return this.inner.getMany(keys);
  }

  entries(prefix: string, after?: string): AsyncIterable<[string, Uint8Array]> {
    return this.inner.entries(prefix, after);
  }

  batch(ops: StoreOp[], options?: { sync?: boolean }): Promise<void> {
    if (this.snapshots.size === 0) return this.inner.batch(ops, options);
    return this.exclusive(async () => {
      if (this.snapshots.size === 0) return this.inner.batch(ops, options);
      const keys = [...new Set(ops.map((op) => op.key))];
      const before = await this.inner.getMany(keys);
      const seq = this.seq + 1;
      await this.inner.batch([...ops, { type: 'put', key: recordKey(seq), value: encodeUndo(keys, before) }, this.headOp(seq, this.nextId)], options);
      this.seq = seq;
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  list(): SnapshotInfo[] {
    return [...this.snapshots.values()].sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** The snapshot with this id or name. */
  find(idOrName: string): SnapshotInfo {
    const found = this.snapshots.get(idOrName) ?? [...this.snapshots.values()].find((s) => s.name === idOrName);
    if (!found) {
      const known = this.list().map((s) => (s.name ? `${s.id} (${s.name})` : s.id));
      throw new ValidationError('SNAPSHOT_NOT_FOUND', 'No such snapshot', {
        details: `${JSON.stringify(idOrName)}; ${known.length ? `this node has ${known.join(', ')}` : 'this node has none'}`,
      });
    }
    return found;
  }

  /** Records the state as it is now; a name given again moves to the new snapshot. */
  take(height: number, name?: string): Promise<SnapshotInfo> {
    if (name !== undefined && !NAME.test(name)) {
      throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid snapshot name', { field: 'name', details: `expected a letter then up to 63 letters, digits, . _ -; got ${JSON.stringify(name)}` });
    }
    return this.exclusive(async () => {
      if (this.snapshots.size >= MAX_SNAPSHOTS) {
        throw new ValidationError('BAD_REQUEST_PARAM', 'Too many snapshots', { details: `a node keeps at most ${MAX_SNAPSHOTS}; delete some (snapshot {"delete": id})` });
      }
      const info: SnapshotInfo = { id: String(this.nextId), ...(name ? { name } : {}), seq: this.seq, height, createdAt: Date.now() };
      const ops: StoreOp[] = [{ type: 'put', key: 'snap:' + info.id, value: utf8.encode(JSON.stringify(info)) }, this.headOp(this.seq, this.nextId + 1)];
      const renamed = name === undefined ? undefined : [...this.snapshots.values()].find((s) => s.name === name);
      if (renamed) {
        const { name: _, ...unnamed } = renamed;
        ops.push({ type: 'put', key: 'snap:' + renamed.id, value: utf8.encode(JSON.stringify(unnamed)) });
      }
      await this.inner.batch(ops, { sync: true });
      if (renamed) this.snapshots.set(renamed.id, { ...renamed, name: undefined });
      this.nextId++;
      this.snapshots.set(info.id, info);
      return info;
    });
  }

  /**
   * Puts every key back as it was when `target` was taken, in one batch. Snapshots taken after
   * it are dropped (their undo records are gone); `target` and older ones stay valid.
   */
  revert(target: SnapshotInfo): Promise<{ keys: number; dropped: string[] }> {
    return this.exclusive(async () => {
      const restore = new Map<string, Uint8Array | undefined>();
      const ops: StoreOp[] = [];
      // Records in order: the first record after the snapshot that names a key holds its value then.
      for await (const [key, value] of this.inner.entries('j:', recordKey(target.seq))) {
        decodeUndo(value, (k, v) => {
          if (!restore.has(k)) restore.set(k, v);
        });
        ops.push({ type: 'del', key });
      }
      for (const [key, value] of restore) ops.push(value === undefined ? { type: 'del', key } : { type: 'put', key, value });
      // Taken after the target, by id (ids only grow): with no write between them a later
      // snapshot has the target's seq, and it goes too.
      const dropped = this.list().filter((s) => Number(s.id) > Number(target.id));
      for (const s of dropped) ops.push({ type: 'del', key: 'snap:' + s.id });
      ops.push(this.headOp(target.seq, this.nextId));
      await this.inner.batch(ops, { sync: true });
      this.seq = target.seq;
      for (const s of dropped) this.snapshots.delete(s.id);
      return { keys: restore.size, dropped: dropped.map((s) => s.id) };
    });
  }

  /** Forgets a snapshot and the undo records no snapshot needs any more. */
  remove(target: SnapshotInfo): Promise<void> {
    return this.exclusive(async () => {
      const ops: StoreOp[] = [{ type: 'del', key: 'snap:' + target.id }];
      const rest = this.list().filter((s) => s.id !== target.id);
      const keepAfter = rest.length ? Math.min(...rest.map((s) => s.seq)) : this.seq;
      for await (const [key] of this.inner.entries('j:')) {
        if (key > recordKey(keepAfter)) break;
        ops.push({ type: 'del', key });
      }
      await this.inner.batch(ops, { sync: true });
      this.snapshots.delete(target.id);
    });
  }

  private headOp(seq: number, nextId: number): StoreOp {
    return { type: 'put', key: 'journal', value: utf8.encode(JSON.stringify({ seq, nextId })) };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
