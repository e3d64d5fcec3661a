// A chain for the JSON-RPC answer tests whose every answer the test sets (no EVM): accounts,
// code, slots, blocks, events, views, receipts and transactions, and the rpc() call over it.
import { handleJsonRpc, type EthBlock, type EthChain, type EthReceipt, type EthTransaction } from '../../src/node/evm/jsonrpc.js';
import type { BlockLogs, StoredLog } from '../../src/node/evm/logs.js';
import type { EvmRun } from '../../src/node/evm/runner.js';
import { emptyChanges, type EvmAccount } from '../../src/node/evm/state.js';

export const A = 'aa'.repeat(20);
export const B = 'bb'.repeat(20);
export const topic = (b: number) => b.toString(16).padStart(2, '0').repeat(32);
export type Message = Parameters<EthChain['view']>[0];

/** A chain of `head + 1` blocks whose answers the tests set. */
export class FakeChain implements EthChain {
  ethChainId = 1_000_000_005n;
  head = 3;
  price = 0n;
  accounts = new Map<string, EvmAccount>();
  codes = new Map<string, Uint8Array>();
  slots = new Map<string, Uint8Array>();
  events: BlockLogs[] = [];
  views: Message[] = [];
  /** What a view answers. */
  onView: (m: Message) => EvmRun = () => ({ end: 'return', returnData: new Uint8Array([1, 2]), gasUsed: 0n, logs: [], changes: emptyChanges() });
  onSend: (raw: Uint8Array) => Promise<string> = async () => 'ee'.repeat(32);
  receipts = new Map<string, EthReceipt>();
  transactions = new Map<string, EthTransaction>();
  logRanges: [number, number][] = [];
  logLimits?: { results: number; blocks: number };
  blockReads = 0;

  blockOf(height: number): EthBlock {
    return {
      height,
      hash: height.toString(16).padStart(64, 'a'),
      parent: (height - 1).toString(16).padStart(64, 'a'),
      txroot: '11'.repeat(32),
      balroot: '22'.repeat(32),
      time: 1_700_000_000_999 + height * 1000,
      txHashes: [topic(0xc0 + height), topic(0xd0 + height)],
    };
  }
  height() {
    return this.head;
  }
  async block(ref: number | string) {
    this.blockReads++;
    for (let h = 0; h <= this.head; h++) if (ref === h || ref === this.blockOf(h).hash) return this.blockOf(h);
    return undefined;
  }
  ledger() {
    return { account: (k: string) => this.accounts.get(k), code: (k: string) => this.codes.get(k), storage: (k: string, s: string) => this.slots.get(`${k}:${s}`) };
  }
  async view(m: Message) {
    this.views.push(m);
    return this.onView(m);
  }
  gasPrice() {
    return this.price;
  }
  async *logs(from: number, to: number) {
    this.logRanges.push([from, to]);
    yield* this.events.filter((b) => b.height >= from && b.height <= to);
  }
  pendingNonce(key: string) {
    return (this.accounts.get(key)?.nonce ?? 0n) + (this.waiting.get(key) ?? 0n);
  }
  /** Transactions of an account waiting in order for a block. */
  waiting = new Map<string, bigint>();
  sendRawTransaction(raw: Uint8Array) {
    return this.onSend(raw);
  }
  async receipt(hash: string) {
    return this.receipts.get(hash);
  }
  async transaction(hash: string) {
    return this.transactions.get(hash);
  }
}

export let chain: FakeChain;
export type Answer = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string; data?: string } };
export const rpc = async (method: string, params?: unknown) => (await handleJsonRpc(chain, { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })) as Answer;
export const fresh = () => {
  chain = new FakeChain();
};
export const log = (height: number, i: number, over: Partial<StoredLog> = {}): StoredLog => ({
  txid: `t${height}`,
  txIndex: i % 2,
  logIndex: i,
  address: A,
  caller: B,
  topics: [topic(height)],
  data: 'ab',
  ...over,
});
