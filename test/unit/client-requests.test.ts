// What the client sends for a block id and a contract call, checked against a fake fetch: the
// block ids the API takes (a height of 1 to 15 digits, a 64-digit hex hash with or without 0x,
// 'last', 'genesis') reach the node on their paths, others are refused before any request; a
// call's optional fields are sent only when given, and a byte address must be 8 bytes; the
// smallest time and size limits createClient takes are 1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from '../../src/client/index.js';

function recording(answer: unknown = { block: { hash: 'AB' } }) {
  const sent: { url: string; body?: string }[] = [];
  const client = createClient({
    baseUrl: 'http://node.test',
    fetch: async (input, init) => {
      sent.push({ url: String(input), body: init?.body === undefined ? undefined : String(init.body) });
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, sent };
}

async function refused(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'accepted';
}

test('getBlock: heights of 1 and 15 digits, hashes of 64 hex digits (zeros included, 0x or not) go to the node', async () => {
  const { client, sent } = recording();
  const zeros = '0'.repeat(63) + 'a';
  await client.getBlock(7);
  await client.getBlock('123456789012345');
  await client.getBlock(zeros);
  await client.getBlock('0x' + zeros);
  await client.getBlock('last');
  assert.equal(
    sent.map((s) => new URL(s.url).pathname),
    ['/api/blockn/7', '/api/blockn/123456789012345', `/api/block/${zeros}`, `/api/block/${zeros}`, '/api/block/last'],
  );
});

test('getBlock: 16 digits, 65 or 63 hex digits and an empty id are refused without a request', async () => {
  const { client, sent } = recording();
  for (const id of ['1234567890123456', 'a'.repeat(65), 'a'.repeat(63), '', '0x' + 'g'.repeat(64)]) {
    assert.is(await refused(() => client.getBlock(id)), 'INVALID_ARGUMENT', id);
  }
  assert.is(sent.length, 0);
});

test('executeCall: from, gas and value are sent only when given; a byte address must be 8 bytes', async () => {
  const { client, sent } = recording({ res: '0x' });
  const to = new Uint8Array([0x80, 0, 0x20, 0, 2, 0, 0, 3]);
  await refused(() => client.executeCall({ to, data: '0x01' }));
  await refused(() => client.executeCall({ to: 'AA010000003355443322', data: new Uint8Array([2]), from: '0x1', gas: 5n, value: 7n } as never));
  const [bare, full] = sent.map((s) => JSON.parse(s.body!));
  assert.equal(bare, { call: '0x0', args: ['0x01'], to: '0x8000200002000003' });
  assert.equal(full, { call: '0x0', args: ['0x02'], to: 'AA010000003355443322', from: '0x1', gas: '5', value: '7' });
  assert.is(await refused(() => client.executeCall({ to: new Uint8Array(9), data: '0x' })), 'INVALID_ARGUMENT');
  assert.is(sent.length, 2);
});

test('createClient: a timeout of 1 ms and a response limit of 1 byte are taken; a limit of 0 bytes is refused', () => {
  const fetch = async () => new Response('{}');
  createClient({ baseUrl: 'http://node.test', fetch, timeoutMs: 1 });
  createClient({ baseUrl: 'http://node.test', fetch, maxResponseBytes: 1 });
  let code = 'accepted';
  try {
    createClient({ baseUrl: 'http://node.test', fetch, maxResponseBytes: 0 });
  } catch (err) {
    code = (err as { code: string }).code;
  }
  assert.is(code, 'INVALID_ARGUMENT');
});

test.run();
