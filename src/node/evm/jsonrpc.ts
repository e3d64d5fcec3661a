// POST /jsonrpc: the Ethereum JSON-RPC methods the reference node answers
// (tpnode_jsonrpc.erl), over the node's own chain, so that viem, ethers and Foundry's `cast`
// read contracts, events and blocks and send Ethereum transactions. Requests may be batched.
// Errors use the JSON-RPC codes: -32700 parse, -32600 invalid request, -32601 unknown method,
// -32602 bad params, 3 execution reverted (with the revert data, as geth answers), -32000 a
// transaction refused, -32005 a log query over its limit, -32603 internal.

import { TpkitError } from '../../errors.js';
import { METHODS } from './jsonrpc-methods.js';
import type { EthChain } from './eth-chain.js';
import { RpcError } from './rpc-error.js';
import { invalidParams } from './rpc-params.js';

export { RpcError } from './rpc-error.js';
export type { EthBlock, EthChain, EthReceipt, EthTransaction } from './eth-chain.js';
export { intrinsicGas } from './eth-tx.js';

const MAX_BATCH = 100;

/** The methods served, for the docs and tests. */
export const RPC_METHODS = Object.keys(METHODS);

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

async function one(chain: EthChain, request: unknown, onInternal: (err: unknown) => void): Promise<object | undefined> {
  const r = (request && typeof request === 'object' && !Array.isArray(request) ? request : {}) as RpcRequest;
  const id = typeof r.id === 'string' || typeof r.id === 'number' || r.id === null ? r.id : null;
  const valid = r.jsonrpc === '2.0' && typeof r.method === 'string';
  // A notification (no id) gets no answer; an invalid request always gets one.
  const answer = (body: object) => (valid && r.id === undefined ? undefined : { jsonrpc: '2.0', id, ...body });
  try {
    if (!valid) throw new RpcError(-32600, 'Invalid request: expected {"jsonrpc":"2.0","method":…}');
    const method = r.method as string;
    const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
    if (!handler) throw new RpcError(-32601, `Method not found: ${method.slice(0, 64)}`);
    if (r.params !== undefined && !Array.isArray(r.params)) throw invalidParams('"params" must be an array');
    const result = await handler(chain, (r.params as unknown[] | undefined) ?? []);
    return answer({ result });
  } catch (err) {
    if (err instanceof RpcError) return answer({ error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } });
    if (err instanceof TpkitError && err.code === 'DEPENDENCY_MISSING') return answer({ error: { code: -32603, message: err.message } });
    onInternal(err);
    return answer({ error: { code: -32603, message: 'Internal error' } });
  }
}

/**
 * Answers a JSON-RPC request body (already parsed): one request or a batch. Returns the
 * answer to send, or undefined when every request was a notification (no id).
 */
export async function handleJsonRpc(chain: EthChain, body: unknown, onInternal: (err: unknown) => void = () => {}): Promise<unknown> {
  if (Array.isArray(body)) {
    if (body.length === 0) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: empty batch' } };
    if (body.length > MAX_BATCH) return { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid request: a batch holds at most ${MAX_BATCH} requests` } };
    const answers: object[] = [];
    for (const request of body) {
      const a = await one(chain, request, onInternal);
      if (a) answers.push(a);
    }
    return answers.length ? answers : undefined;
  }
  return one(chain, body, onInternal);
}
