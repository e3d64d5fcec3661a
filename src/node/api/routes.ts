// The endpoints: the specification's four, the ones the official SDK and explorers call, each
// a small function from request to JSON. Errors are thrown and mapped in api-errors.ts.

import { base64ToBytes, bytesToHex, hexToBytes } from '../../bytes.js';
import { addressParts, addressToText, parseAddress } from '../../codec/address.js';
import { ValidationError } from '../../errors.js';
import type { BlockRecord } from '../ledger/block.js';
import type { Chain } from '../ledger/chain.js';
import type { Reply, RequestContext, Route } from '../http/server.js';
import { toJson, type JsonValue } from '../base/json.js';
import { JsonBytesWriter } from '../base/json-bytes.js';
import { chainNodes, type NodeAddress } from './discovery.js';
import { holdRequested } from '../http/hold-mark.js';
import { settingsAt, settingsTree } from './chain-settings.js';
import { writeFullBlock, type AddressForm } from './full-block.js';
import { createUnservedRoutes } from './unserved-routes.js';
import { headerView, walletInfo, withAddress } from './views.js';
import { createContractRoutes } from './contract-routes.js';
import { evmKey } from '../evm/address.js';
import { silentLogger, type Logger } from '../base/log.js';

const VERSION = 'tpkit-node/0.1';

const reply = (body: { [key: string]: JsonValue }, status?: number): Reply => ({ json: toJson(body), status });

function addressParam(text: string): Uint8Array {
  return parseAddress(text);
}

function heightParam(text: string): number {
  if (!/^\d{1,15}$/.test(text)) {
    throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid block height', { details: `expected a non-negative integer, got ${JSON.stringify(text)}` });
  }
  return Number(text);
}

function blockNotFound(what: string): ValidationError {
  return new ValidationError('BLOCK_NOT_FOUND', 'Not found', { details: `no block ${what}` });
}

const MSGPACK_TYPES = new Set(['application/msgpack', 'application/x-msgpack', 'application/vnd.msgpack', 'application/octet-stream']);

/**
 * The container from POST /api/tx/new: JSON `{"tx": base64}` (or `"0x…"` hex, as the reference
 * node also reads), or the raw MessagePack bytes under a binary content type or at tx/new.bin.
 */
export function containerFromRequest(ctx: RequestContext): Uint8Array {
  const type = (ctx.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (MSGPACK_TYPES.has(type) || ctx.format === 'bin') return ctx.body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(ctx.body.buffer, ctx.body.byteOffset, ctx.body.byteLength).toString('utf8'));
  } catch {
    throw new ValidationError('NOT_JSON', 'Request body is not JSON', {
      details: ctx.body.length === 0 ? 'empty body' : 'expected {"tx": "<base64 container>"}',
    });
  }
  const tx = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as { tx?: unknown }).tx : undefined;
  if (typeof tx !== 'string' || tx.length === 0) {
    throw new ValidationError('MISSING_TX', 'Request has no "tx" string', {
      field: 'tx',
      details: tx === undefined ? 'expected {"tx": "<base64 container>"}' : `"tx" is ${Array.isArray(tx) ? 'an array' : tx === '' ? 'empty' : typeof tx}`,
    });
  }
  return tx.startsWith('0x') || tx.startsWith('0X') ? hexToBytes(tx) : base64ToBytes(tx);
}

async function blockFor(chain: Chain, id: string): Promise<BlockRecord> {
  let record: BlockRecord | undefined;
  if (id === 'last') record = await chain.blockAt(chain.height);
  else if (id === 'genesis') record = await chain.blockAt(0);
  else if (/^(0x)?[0-9a-fA-F]{64}$/.test(id)) record = await chain.blockByHash(id.replace(/^0x/, ''));
  else throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid block id', { details: `expected "last", "genesis" or a 64-digit hex hash, got ${JSON.stringify(id)}` });
  if (!record) throw blockNotFound(id);
  return record;
}

/**
 * GET /api/block and blockn: the block inside the reference's envelope, streamed: each
 * transaction's chunks go to the reader as they fill, and the next is made once it took them.
 */
function fullBlockReply(chain: Chain, r: BlockRecord, onlyAddress: Uint8Array | undefined, form: AddressForm = 'hex'): Reply {
  return {
    json: {
      stream: async (write) => {
        const out = new JsonBytesWriter().text('{"result":"ok","block":');
        await writeFullBlock(out, chain, r, onlyAddress, undefined, () => write(out.take()), form);
        await write(out.text(',"ok":true}').finish().chunks);
      },
    },
  };
}

function blockInfo(r: BlockRecord): { [key: string]: JsonValue } {
  return { hash: r.hash, header: headerView(r), time: r.time, txs_count: r.txs.length, txs_ids: [...r.txs], failed: { ...r.failed }, sign: [] };
}

function addrQuery(ctx: RequestContext): Uint8Array | undefined {
  const text = ctx.query.get('addr');
  return text === null ? undefined : parseAddress(text);
}

export function createRoutes(chain: Chain, address: NodeAddress = { url: '' }, logger: Logger = silentLogger): Route[] {
  const contracts = createContractRoutes(chain, logger);
  // The settings tree changes only with the allocation counter (or a reload of the head).
  let settings: { allocLast: number; feeAddress?: Uint8Array; tree: { [key: string]: JsonValue } } = { allocLast: -1, tree: {} };
  const settingsNow = () => {
    const { allocLast, feeAddress } = chain;
    if (settings.allocLast !== allocLast || settings.feeAddress !== feeAddress) {
      settings = { allocLast, feeAddress, tree: settingsTree({ config: chain.config, feeAddress, allocLast }) };
    }
    return settings.tree;
  };
  const get = (prefix: string[], params: number | 'rest', handler: Route['handler']): Route => ({ method: 'GET', prefix, params, handler });
  return [
    get(['address'], 1, async (ctx) => {
      const address = addressParam(ctx.params[0]);
      const wallet = chain.wallets.get(bytesToHex(address));
      if (!wallet) throw new ValidationError('WALLET_NOT_FOUND', 'Not found', { details: `no wallet ${addressToText(address)}` });
      const key = evmKey(address);
      const code = chain.contracts.code.get(key);
      const contract = code ? { codeSize: code.length, slots: await chain.contracts.slotCount(key) } : undefined;
      return reply(withAddress(address, { result: 'ok', info: walletInfo(wallet, ctx.query.get('pubkey'), contract) }));
    }),
    get(['address'], 2, (ctx) => {
      if (ctx.params[1] !== 'seq') return contracts.address(ctx);
      const address = addressParam(ctx.params[0]);
      const wallet = chain.wallets.get(bytesToHex(address));
      if (!wallet) throw new ValidationError('WALLET_NOT_FOUND', 'Not found', { details: `no wallet ${addressToText(address)}` });
      return reply(withAddress(address, { result: 'ok', seq: wallet.seq }));
    }),
    {
      method: 'POST',
      prefix: ['tx', 'new'],
      params: 0,
      handler: async (ctx) => {
        const { txid } = await chain.submit(containerFromRequest(ctx), { hold: holdRequested(ctx.headers) });
        return { json: `{"result":"ok","txid":"${txid}","ok":true}` };
      },
    },
    get(['tx', 'status'], 1, async (ctx) => {
      const status = await chain.statusJson(ctx.params[0]);
      const res = status ?? 'null';
      return { json: `{"res":${res},"Res":${res},"ok":true}` };
    }),
    get(['settings'], 'rest', (ctx) => {
      const settings = settingsAt(settingsNow(), ctx.params);
      // A path to nothing is an empty object, as the reference answers it.
      return reply({ result: 'ok', settings: settings ?? {}, ok: true });
    }),
    get(['node', 'status'], 0, async () => {
      // Read the head before awaiting the store: a block may commit meanwhile.
      const { height, hash } = chain;
      const pending = chain.mempool.size;
      const last = await chain.blockAt(height);
      return reply({
        result: 'ok',
        status: {
          nodeid: chain.config.nodeName,
          nodename: chain.config.nodeName,
          public_key: '',
          blockchain: { chain: chain.config.chain, hash: bytesToHex(hash, true), header: last ? headerView(last) : null, signatures: [], temporary: false },
          is_sync: true,
          pending,
          ver: VERSION,
          // This node's own facts, beside the reference's: how it makes blocks (a client
          // waiting for one on a node that mines on demand says how to make it) and whether
          // its development API is on.
          tpkit: {
            blocks: chain.config.mineOnDemand ? 'on-demand' : chain.config.instant ? 'instant' : 'interval',
            devApi: chain.config.devApi,
          },
        },
        ok: true,
      });
    }),
    get(['block'], 1, async (ctx) => fullBlockReply(chain, await blockFor(chain, ctx.params[0]), addrQuery(ctx))),
    get(['blockn'], 1, async (ctx) => {
      const height = heightParam(ctx.params[0]);
      const record = await chain.blockAt(height);
      if (!record) throw blockNotFound(`at height ${height}`);
      // PowerWallet's history reads blockn: addresses in txs as the reference writes them.
      return fullBlockReply(chain, record, addrQuery(ctx), 'reference');
    }),
    get(['blockinfo'], 1, async (ctx) => reply({ result: 'ok', block: blockInfo(await blockFor(chain, ctx.params[0])), ok: true })),
    get(['blockhash'], 1, async (ctx) => {
      const height = heightParam(ctx.params[0]);
      const record = await chain.blockAt(height);
      if (!record) throw blockNotFound(`at height ${height}`);
      return reply({ result: 'ok', blockhash: record.hash, ok: true });
    }),
    get(['where'], 1, (ctx) => {
      const target = addressParam(ctx.params[0]);
      const parts = addressParts(target);
      const local = parts.kind === 'private' || parts.block === chain.config.chain;
      if (local && !chain.wallets.has(bytesToHex(target))) {
        throw new ValidationError('WALLET_NOT_FOUND', 'Not found', { details: `no wallet ${addressToText(target)}` });
      }
      const nodes = local ? chainNodes(chain.config.nodeName, address, ctx.headers.host) : {};
      return reply(withAddress(target, { result: local ? 'found' : 'other_chain', chain: parts.kind === 'private' ? chain.config.chain : parts.block, chain_nodes: nodes }));
    }),
    get(['nodes'], 1, (ctx) => {
      const asked = heightParam(ctx.params[0]);
      const nodes = asked === chain.config.chain ? chainNodes(chain.config.nodeName, address, ctx.headers.host) : {};
      return reply({ result: 'ok', chain_nodes: nodes, ok: true });
    }),
    ...contracts.routes,
    ...createUnservedRoutes(),
  ];
}
