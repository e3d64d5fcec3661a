// What each subscriber of the live stream receives (node-api.md, "Live updates"): the
// acknowledgement of each subscription form and the typed error for each malformed one; then,
// per committed block, only the messages its subscriptions ask for, in the order they were made,
// a transaction by id delivered once and let go, an address only when the block touched it.
// The hub runs against a stand-in chain, with blocks built by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { base64ToBytes, bytesToHex } from '../../src/bytes.js';
import { open, until, withHub, type HubClient } from '../helpers/ws-hub-stand-in.js';
import { notify, pay, register, transfer } from '../helpers/node-helpers.js';
import { mulberry32 } from '../helpers/helpers.js';

const watched = makeAddress({ group: 10, block: 1, wallet: 77 });
const watchedText = addressToText(watched);
const other = addressToText(makeAddress({ group: 10, block: 1, wallet: 78 }));
const storedWallet = { pubkey: null, amount: { SK: '5' }, seq: '3', t: 1700, lastblk: 'ab', preblk: '00ab' };

/** A committed block as the chain hands it to its listeners. */
function block(height: number, txids: string[], touched: Record<string, unknown> = {}) {
  return {
    record: { hash: `H${height}`, header: { height, parent: `H${height - 1}` }, time: 1000 + height, txs: txids, failed: { [txids[0]]: 'x' }, bals: touched, registered: {} },
    txs: txids.map((txid) => ({ txid, body: { kind: 'ether' }, raw: new Uint8Array() })),
    statuses: txids.map((txid, i) => `{"ok":true,"n":${i},"of":${JSON.stringify(txid)}}`),
  };
}

/** Sends a message and waits for the one answer to it. */
async function ask(c: HubClient, message: string): Promise<Record<string, unknown>> {
  const before = c.messages.length;
  c.socket.send(message);
  await until(`an answer to ${message}`, () => c.messages.length > before);
  return c.messages[before];
}

test('acknowledgements: each form in the reference list shape, an id echoed only when a string or a number', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    assert.equal(await ask(c, '{"sub":"blockstat","id":true}'), { ok: true, subscribe: ['new_block', 'stat', 'json'], moresubs: 99 });
    assert.equal(await ask(c, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'bal', id: 'b' })), { ok: true, subscribe: ['address', watchedText, ['bal']], moresubs: 98, id: 'b' });
    assert.equal(await ask(c, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'tx', id: 0 })), { ok: true, subscribe: ['address', watchedText, ['tx']], moresubs: 97, id: 0 });
    assert.equal(await ask(c, JSON.stringify({ sub: 'addr', addr: other, get: ' bal , tx ' })), { ok: true, subscribe: ['address', other, ['tx', 'bal']], moresubs: 96 });
    assert.equal(await ask(c, JSON.stringify({ sub: 'addr', addr: other })), { ok: true, subscribe: ['address', other, ['tx', 'bal']], moresubs: 96 }, 'no "get" is both, the same subscription');
    assert.equal(await ask(c, '{"sub":"tx","txid":"pending-1"}'), { ok: true, subscribe: ['tx', 'pending-1'], moresubs: 95 });
    assert.equal(await ask(c, '{"sub":"tx","id":{"a":1}}'), { ok: true, subscribe: ['tx', 'any'], moresubs: 94 });
    assert.not.ok(
      c.messages.some((m) => 'tx' in m),
      'a pending transaction is not answered',
    );
    c.socket.close();
  });
});

test('malformed subscriptions: SUBSCRIPTION_INVALID 10050 with what was expected, and the connection goes on', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    for (const [message, details] of [
      ['null', 'expected a JSON object such as {"sub":"block"}'],
      ['"block"', 'expected a JSON object such as {"sub":"block"}'],
      ['{"sub":"tx","txid":null}', '"txid" must be a string'],
      [JSON.stringify({ sub: 'addr', addr: 5 }), '"addr" must be an address, e.g. {"sub":"addr","addr":"AA…","get":"tx,bal"}'],
      [JSON.stringify({ sub: 'addr', addr: watchedText, get: '' }), '"get" lists "tx" and/or "bal", e.g. "tx,bal"'],
      [JSON.stringify({ sub: 'addr', addr: watchedText, get: ' , ' }), '"get" lists "tx" and/or "bal", e.g. "tx,bal"'],
      [JSON.stringify({ sub: 'addr', addr: watchedText, get: ['tx'] }), '"get" lists "tx" and/or "bal", e.g. "tx,bal"'],
      [JSON.stringify({ sub: 'addr', addr: watchedText, get: 'tx,txs' }), '"get" lists "tx" and/or "bal", e.g. "tx,bal"'],
      [JSON.stringify({ sub: 'addr', addr: watchedText, get: 'bals' }), '"get" lists "tx" and/or "bal", e.g. "tx,bal"'],
      ['{"sub":"Block","id":4}', '"sub" must be one of block, blockstat, tx, addr; got "Block"'],
    ] as const) {
      const answer = await ask(c, message);
      assert.equal([answer.ok, answer.error, answer.code, answer.details, 'id' in answer], [false, 'SUBSCRIPTION_INVALID', 10050, details, false], message);
    }
    assert.is((await ask(c, '{"sub":"block"}')).moresubs, 99, 'nothing malformed was held');
    c.socket.close();
  });
});

test('each block: every subscriber gets what it asked for, in the order it asked; a txid once; an address only when touched', async () => {
  await withHub(async (s) => {
    const stats = await open(s.port);
    const balances = await open(s.port);
    const idle = await open(s.port);
    await ask(stats, '{"sub":"blockstat"}');
    await ask(stats, '{"sub":"tx"}');
    await ask(stats, '{"sub":"tx","txid":"b"}');
    await ask(balances, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'bal' }));
    await ask(balances, JSON.stringify({ sub: 'addr', addr: other, get: 'bal' }));
    await ask(balances, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'tx' }));
    const publish = (b: unknown) => s.stand.blockListeners.forEach((l) => l(b));
    const acks = stats.messages.length;

    publish(block(5, ['a', 'b'], { [bytesToHex(watched).toUpperCase()]: storedWallet }));
    await until('the first block', () => stats.messages.length === acks + 4 && balances.messages.length === 4);
    assert.equal(stats.messages.slice(acks), [
      { blockstat: { hash: 'H5', height: 5, parent: 'H4', time: 1005, txs: 2, failed: 1 } },
      { tx: 'a', res: { ok: true, n: 0, of: 'a' } },
      { tx: 'b', res: { ok: true, n: 1, of: 'b' } },
      { tx: 'b', res: { ok: true, n: 1, of: 'b' } },
    ]);
    assert.equal(balances.messages[3], { address: watchedText, balance: { amount: { SK: 5 }, seq: 3, t: 1700, lastblk: '00AB' } });

    publish(block(6, ['c', 'b']));
    await until('the second block', () => stats.messages.length === acks + 7);
    assert.is(balances.messages.length, 4, 'the address was touched by no transaction of the first block, and not at all by the second');
    assert.equal(
      stats.messages.slice(acks + 4),
      [{ blockstat: { hash: 'H6', height: 6, parent: 'H5', time: 1006, txs: 2, failed: 1 } }, { tx: 'c', res: { ok: true, n: 0, of: 'c' } }, { tx: 'b', res: { ok: true, n: 1, of: 'b' } }],
      'the settled txid was let go',
    );
    assert.is((await ask(stats, '{"sub":"block"}')).moresubs, 97, 'blockstat, any tx and block are held');
    assert.is(idle.messages.length, 0, 'a connection without subscriptions gets nothing');
    for (const c of [stats, balances, idle]) c.socket.close();
  });
});

test('subscriptions to wallets that do not exist yet hold up nothing: every later subscription and client still gets each block', async () => {
  await withHub(async (s) => {
    const random = mulberry32(0x775b);
    const nowhere = (i: number) => addressToText(makeAddress({ group: 10, block: 1, wallet: 90_000 + i }));
    // Four clients, opened in turn; each takes 1-4 subscriptions in a random order, some to
    // wallets no block touches, each ending with blockstat so that every client expects it.
    const clients: HubClient[] = [];
    const expected: number[] = [];
    for (let c = 0; c < 4; c++) {
      const client = await open(s.port);
      const subs: string[] = [];
      const n = Math.floor(random() * 4);
      for (let i = 0; i < n; i++) subs.push(JSON.stringify({ sub: 'addr', addr: random() < 0.7 ? nowhere(c * 10 + i) : watchedText, get: 'bal' }));
      subs.splice(Math.floor(random() * (subs.length + 1)), 0, '{"sub":"blockstat"}');
      for (const sub of subs) await ask(client, sub);
      clients.push(client);
      // acknowledgements, the blockstat, and the watched wallet's balance once (identical subscriptions are one)
      expected.push(subs.length + 1 + (subs.some((x) => x.includes(watchedText)) ? 1 : 0));
    }
    const publish = (b: unknown) => s.stand.blockListeners.forEach((l) => l(b));
    publish(block(9, ['z'], { [bytesToHex(watched).toUpperCase()]: storedWallet }));
    await until("every client's messages for the block", () => clients.every((c, i) => c.messages.length >= expected[i]));
    clients.forEach((c, i) => {
      assert.equal(c.messages.filter((m) => 'blockstat' in m).length, 1, `client ${i} got the blockstat`);
      assert.is(c.messages.length, expected[i], `client ${i}: one message per subscription the block concerns`);
    });
    for (const c of clients) c.socket.close();
  });
});

test("an address's transactions: those it sends (of any kind), those sent to it, and the register that made it; never an Ethereum one", async () => {
  await withHub(async (s) => {
    const key = new Uint8Array(32).fill(7);
    const sender = makeAddress({ group: 10, block: 1, wallet: 79 });
    const raw = (b64: string) => base64ToBytes(b64);
    // One block: watched registered, paid by sender, sending a notify; sender paying other; an Ethereum transaction.
    const txs = [
      { txid: 'reg', body: { kind: 'register' }, raw: raw(register(key, 1_700_000_000_000, 0)) },
      { txid: 'in', body: { kind: 'generic', from: sender, to: watched }, raw: raw(transfer({ key, from: sender, to: watched, seq: 1, t: 1_700_000_000_001, payload: [pay(5)] })) },
      { txid: 'out', body: { kind: 'notify', from: watched }, raw: raw(notify({ key, from: watched, seq: 1, t: 1_700_000_000_002, payload: [] })) },
      {
        txid: 'elsewhere',
        body: { kind: 'generic', from: sender, to: makeAddress({ group: 10, block: 1, wallet: 78 }) },
        raw: raw(transfer({ key, from: sender, to: makeAddress({ group: 10, block: 1, wallet: 78 }), seq: 2, t: 1_700_000_000_003, payload: [pay(1)] })),
      },
      { txid: 'eth', body: { kind: 'ether', from: '000000000000000000000000' + bytesToHex(watched) }, raw: new Uint8Array([0xf8]) },
    ];
    const hexOf = (a: Uint8Array) => bytesToHex(a).toUpperCase();
    const record = {
      hash: 'H9',
      header: { height: 9, parent: 'H8' },
      time: 1009,
      txs: txs.map((t) => t.txid),
      failed: {},
      bals: { [hexOf(watched)]: storedWallet, [hexOf(sender)]: storedWallet, [hexOf(makeAddress({ group: 10, block: 1, wallet: 78 }))]: storedWallet },
      registered: { reg: watchedText },
    };
    const c = await open(s.port);
    await ask(c, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'tx' }));
    await ask(c, JSON.stringify({ sub: 'addr', addr: addressToText(sender), get: 'tx' }));
    await ask(c, JSON.stringify({ sub: 'addr', addr: other, get: 'tx' }));
    s.stand.blockListeners.forEach((l) => l({ record, txs, statuses: txs.map(() => '{"ok":true}') }));
    await until('the three address messages', () => c.messages.length === 6);
    const pushed = c.messages.slice(3) as { address: string; txs: Record<string, Record<string, unknown>> }[];
    assert.equal(
      pushed.map((m) => [m.address, Object.keys(m.txs)]),
      [
        [watchedText, ['reg', 'in', 'out']],
        [addressToText(sender), ['in', 'elsewhere']],
        [other, ['elsewhere']],
      ],
    );
    assert.equal(pushed[0].txs.reg.extdata, { 'addr.txt': watchedText, addr: hexOf(watched) }, 'the register names the wallet it made');
    c.socket.close();
  });
});

test('a frame the stream cannot read (bad UTF-8) closes that connection with 1007; the hub goes on', async () => {
  await withHub(async (s) => {
    const c = await open(s.port);
    const code = new Promise<number>((r) => c.socket.once('close', (n) => r(n)));
    // A masked text frame (mask key zero) whose two bytes are not UTF-8.
    (c.socket as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]));
    assert.is(await code, 1007);
    await until('the place to be freed', () => s.hub.connections === 0);
    const d = await open(s.port);
    assert.is((await ask(d, '{"sub":"block"}')).moresubs, 99);
    d.socket.close();
  });
});

test("an address's message is built once per block and the same one goes to every subscriber", async () => {
  await withHub(
    async (s) => {
      const hex = bytesToHex(watched);
      const wallets = s.stand.chain.wallets as Map<string, unknown>;
      let reads = 0;
      const get = wallets.get.bind(wallets);
      wallets.get = (key: string) => (key === hex && reads++, get(key));
      const readers = [await open(s.port), await open(s.port), await open(s.port)];
      for (const c of readers) await ask(c, JSON.stringify({ sub: 'addr', addr: watchedText, get: 'bal' }));
      s.stand.blockListeners.forEach((l) => l(block(7, ['a'], { [hex.toUpperCase()]: storedWallet })));
      await until("every reader's balance", () => readers.every((c) => c.messages.length === 2));
      for (const c of readers) assert.equal(c.messages[1], { address: watchedText, balance: { amount: { SK: 5 }, seq: 3, t: 1700, lastblk: '00AB' } });
      assert.is(reads, 1, 'the wallet is read for the first subscriber only');
      for (const c of readers) c.socket.close();
    },
    { limits: { connectionsPerAddress: 3 } },
  );
});

test.run();
