// GET logs/{hash} and logs_height/{h} streamed: the bytes equal the answer built whole as one
// JSON text (as before streaming) for blocks of 0, 1 and thousands of events, with multi-byte
// text at every offset around the 64 KiB chunk edge and data longer than a chunk; a damaged
// record is refused before any byte; readers of one block at once share one read of its record;
// and the walk over the record's events (json-elements.ts) finds exactly JSON.parse's elements.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { encodeMsgpack } from '../../src/codec/msgpack-write.js';
import { toJson } from '../../src/node/base/json.js';
import { arrayElements, MalformedJson } from '../../src/node/base/json-elements.js';
import { LogRecords, logsReply } from '../../src/node/api/logs-answer.js';
import type { BlockLogs, StoredLog } from '../../src/node/evm/logs.js';
import type { JsonStream } from '../../src/node/http/server.js';
import type { BlockRecord } from '../../src/node/ledger/block.js';
import { MemoryStore } from '../../src/node/store/store.js';
import { logsKey } from '../../src/node/store/keys.js';

const CHUNK = 64 * 1024;
const hash = (n: number) => n.toString(16).toUpperCase().padStart(64, 'B');
const block = (height: number) => ({ hash: hash(height), header: { height } }) as unknown as BlockRecord;

/** The answer as it was built before streaming: one object, written by toJson. */
function builtWhole(record: BlockRecord, logs: BlockLogs | undefined): string {
  const entries = logs?.logs ?? [];
  const packed = entries.map((l) => '0x' + bytesToHex(encodeMsgpack([l.txid, 'evm', hexToBytes(l.address), hexToBytes(l.caller), hexToBytes(l.data), l.topics.map((t) => hexToBytes(t))])));
  const events = entries.map((l) => ({ txid: l.txid, address: '0x' + l.address, caller: '0x' + l.caller, topics: l.topics.map((t) => '0x' + t), data: '0x' + l.data, logIndex: l.logIndex }));
  return toJson({ result: 'ok', log: { blkid: record.hash, height: record.header.height, logs: packed }, events, ok: true });
}

/** The streamed answer's chunks, as the server writes them. */
async function streamed(height: number, store: MemoryStore): Promise<Buffer[]> {
  const reply = logsReply(block(height), await new LogRecords(store).read(height, hash(height)));
  const chunks: Buffer[] = [];
  await (reply.json as JsonStream).stream(async (c) => void chunks.push(...c));
  return chunks;
}

const log = (txid: string, logIndex: number, dataBytes: number, topics: number): StoredLog => ({
  txid,
  txIndex: 0,
  logIndex,
  address: (logIndex % 256).toString(16).padStart(2, '0').repeat(20),
  caller: 'cd'.repeat(20),
  topics: Array.from({ length: topics }, (_, t) => (t + logIndex).toString(16).padStart(64, '0')),
  data: 'a5'.repeat(dataBytes),
});

async function same(height: number, logs: BlockLogs | undefined, label: string): Promise<Buffer[]> {
  const store = new MemoryStore();
  if (logs) await store.batch([{ type: 'put', key: logsKey(height), value: new TextEncoder().encode(JSON.stringify(logs)) }]);
  const chunks = await streamed(height, store);
  const whole = Buffer.from(builtWhole(block(height), logs), 'utf8');
  const got = Buffer.concat(chunks);
  assert.ok(got.equals(whole), `${label}: ${got.length} bytes streamed, ${whole.length} built whole; first difference at ${[...got].findIndex((b, i) => b !== whole[i])}`);
  return chunks;
}

test('0, 1 and 3,000 events: the streamed bytes equal the answer built whole', async () => {
  await same(0, undefined, 'no record');
  await same(4, { height: 4, hash: hash(4), logs: [] }, 'an empty record');
  await same(5, { height: 5, hash: hash(5), logs: [log('tx-1', 0, 32, 2)] }, 'one event');
  const many = Array.from({ length: 3000 }, (_, i) => log(`tx-${i >> 4}`, i, (i * 37) % 700, i % 5));
  const chunks = await same(6, { height: 6, hash: hash(6), logs: many }, '3,000 events');
  assert.ok(chunks.length > 20, `${chunks.length} chunks`);
  assert.ok(
    chunks.every((c) => c.length <= CHUNK),
    'no chunk over 64 KiB',
  );
});

test('multi-byte text at every offset around the 64 KiB chunk edge, and data longer than a chunk, stream the same bytes', async () => {
  // txids of the node are ASCII; text with 2-, 3- and 4-byte characters checks the writer regardless.
  const text = 'é€😀"\\\u2028';
  const wide = /[\u0080-\u{10ffff}]/gu;
  let edgesInside = 0;
  // The filler's txid shifts what follows by 3 bytes a character, its logIndex by 1 a digit.
  for (let p = 0; p < 8; p++) {
    for (const logIndex of [0, 10, 100]) {
      const filler = { ...log('x'.repeat(p), logIndex, 20_000, 0) };
      const across = Array.from({ length: 300 }, (_, i) => log(`${text.repeat(20)}${'€'.repeat(i % 5)}${i}`, i + 1, 1, 1));
      const logs = [filler, ...across];
      await same(7, { height: 7, hash: hash(7), logs }, `p ${p}, logIndex ${logIndex}`);
      // The fixture's worth: how many 64 KiB edges of the whole answer fall inside a multi-byte character.
      const whole = builtWhole(block(7), { height: 7, hash: hash(7), logs });
      let at = 0;
      let last = 0;
      for (const m of whole.matchAll(wide)) {
        at += Buffer.byteLength(whole.slice(last, m.index));
        last = m.index;
        const size = Buffer.byteLength(m[0]);
        if (Math.floor(at / CHUNK) !== Math.floor((at + size - 1) / CHUNK)) edgesInside++;
      }
    }
  }
  assert.ok(edgesInside >= 4, `${edgesInside} chunk edges fell inside a multi-byte character`);
  await same(8, { height: 8, hash: hash(8), logs: [log('big', 0, 100_000, 4), log(text, 1, 70_000, 0)] }, 'data over a chunk');
});

test('a damaged record is NODE_INTERNAL naming the height, before any byte is answered', async () => {
  const store = new MemoryStore();
  const good = JSON.stringify({ height: 9, hash: hash(9), logs: [log('tx', 0, 1, 0)] });
  for (const bad of [good.slice(0, -3), good.replace('"logs":[', '"logs":{'), '[]', good.replace('}]', '}'), '']) {
    await store.batch([{ type: 'put', key: logsKey(9), value: new TextEncoder().encode(bad) }]);
    const err = await new LogRecords(store).read(9, hash(9)).then(
      () => undefined,
      (e: unknown) => e as { code: string; details: string },
    );
    assert.equal([err?.code, /^height 9: malformed JSON at byte \d+$/.test(err?.details ?? '')], ['NODE_INTERNAL', true], bad.slice(0, 60));
  }
});

test("readers of one block at once share one read of its record; another block's hash at that height reads its own", async () => {
  const store = new MemoryStore();
  await store.batch([{ type: 'put', key: logsKey(3), value: new TextEncoder().encode(JSON.stringify({ height: 3, hash: hash(3), logs: [log('tx', 0, 1, 0)] })) }]);
  let reads = 0;
  const counting = Object.assign(Object.create(store) as MemoryStore, { get: (key: string) => (reads++, store.get(key)) });
  const records = new LogRecords(counting);
  const together = await Promise.all(Array.from({ length: 20 }, () => records.read(3, hash(3))));
  const [a] = together;
  const later = await records.read(3, hash(3));
  assert.ok(a && together.every((r) => r === a) && later === a, 'one record for every reader');
  assert.is(reads, 1, 'twenty readers arriving together wait for one read, not one read each');
  assert.ok(a !== (await records.read(3, hash(30))), 'a rolled-back height: its new block reads its own record');
  assert.is(reads, 2, 'and the other hash is read once');
});

test('arrayElements: the byte ranges of exactly the elements JSON.parse finds, through nesting, escapes and spaces', () => {
  const docs: [string, string][] = [
    ['{"logs":[]}', 'logs'],
    ['{ "a" : [1,{"logs":[9]}] , "logs" : [ {"x":"]}\\"[{"} , [1,[2]], "s\\\\" ,3.5e2,true,null ] , "z":{} }', 'logs'],
    ['{"height":1,"hash":"AB","logs":[{"t":["é€😀"]},{"u":{"v":[{}]}}]}', 'logs'],
    ['{"other":[1]}', 'logs'],
    ['{}', 'logs'],
  ];
  for (const [doc, key] of docs) {
    const bytes = new TextEncoder().encode(doc);
    const found = [...arrayElements(bytes, key)].map(([s, e]) => JSON.parse(new TextDecoder().decode(bytes.subarray(s, e))));
    assert.equal(found, (JSON.parse(doc) as Record<string, unknown[]>)[key] ?? [], doc);
  }
  for (const bad of ['', '[1]', '{"logs":1}', '{"logs":[1', '{"logs":[1 2]}', '{"logs":[1],', '{"a" 1}', '{"logs":["unterminated]}']) {
    assert.throws(
      () => [...arrayElements(new TextEncoder().encode(bad), 'logs')],
      (e: unknown) => e instanceof MalformedJson,
      bad,
    );
  }
});

test.run();
