// The development endpoints a wallet developer expects from a local node, as Anvil has them:
// a faucet, mining on demand and the development accounts. They exist only on this node, under
// /api/dev, and `--no-dev-api` turns them off (403 DEV_API_DISABLED).

import { bytesToHex } from '../../bytes.js';
import { addressToHex, addressToText, parseAddress } from '../../codec/address.js';
import { ValidationError } from '../../errors.js';
import type { Chain } from '../ledger/chain.js';
import type { NodeConfig } from '../config/config.js';
import { isLoopbackListen } from '../http/host-policy.js';
import type { DevControl } from './dev-control.js';
import type { RequestContext, Route } from '../http/server.js';
import { toJson, type JsonValue } from '../base/json.js';

export const CURRENCY = /^[\x21-\x7e]{1,32}$/;
const MAX_BLOCKS_PER_CALL = 100;

export function jsonBody(ctx: RequestContext): Record<string, unknown> {
  if (ctx.body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(ctx.body).toString('utf8'));
  } catch {
    throw new ValidationError('NOT_JSON', 'Request body is not JSON', { details: 'expected a JSON object' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ValidationError('BAD_REQUEST_PARAM', 'Request body is not a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function wholeAmount(value: unknown, field = 'amount'): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, {
    field,
    details: `expected a whole number of the smallest unit (a string above 2^53), got ${JSON.stringify(value)}`,
  });
}

/** The refusal of every /api/dev call when the API is off, with the reason that applies to this node. */
export function disabled(config: Pick<NodeConfig, 'host'>): never {
  const details = isLoopbackListen(config.host)
    ? 'this node runs with --no-dev-api'
    : `this node listens on ${config.host}, beyond this machine, where the development API stays off unless it is started with --dev-api`;
  throw new ValidationError('DEV_API_DISABLED', 'The development API is off', { details });
}

export function createDevRoutes(chain: Chain, control: DevControl): Route[] {
  const on = chain.config.devApi;
  const reply = (body: { [key: string]: JsonValue }) => ({ json: toJson({ result: 'ok', ...body, ok: true }) });
  return [
    {
      method: 'GET',
      prefix: ['dev', 'accounts'],
      params: 0,
      handler: () => {
        if (!on) disabled(chain.config);
        const accounts: JsonValue[] = chain.accounts.map((a) => {
          const amount: { [key: string]: JsonValue } = {};
          for (const [cur, v] of chain.wallets.get(bytesToHex(a.address))?.amount ?? []) amount[cur] = v;
          return {
            index: a.index,
            address: addressToText(a.address),
            hex: addressToHex(a.address),
            public_key: bytesToHex(a.publicKey, true),
            secret_key: bytesToHex(a.secretKey),
            amount,
          };
        });
        return reply({ accounts });
      },
    },
    {
      method: 'POST',
      prefix: ['dev', 'faucet'],
      params: 0,
      handler: async (ctx) => {
        if (!on) disabled(chain.config);
        const body = jsonBody(ctx);
        if (typeof body.address !== 'string')
          throw new ValidationError('BAD_REQUEST_PARAM', 'Missing "address"', { field: 'address', details: 'expected {"address": "AA…", "amount": 1000, "currency": "SK"}' });
        const address = parseAddress(body.address);
        const currency = body.currency === undefined ? 'SK' : body.currency;
        if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
          throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid currency', { field: 'currency', details: `expected a currency name of printable ASCII, got ${JSON.stringify(currency)}` });
        }
        const amount = wholeAmount(body.amount);
        const record = await chain.mineBlock([{ address: bytesToHex(address), currency, amount }]);
        return reply({ address: addressToText(address), currency, amount, block: record.hash, height: record.header.height });
      },
    },
    {
      method: 'POST',
      prefix: ['dev', 'mine'],
      params: 0,
      handler: async (ctx) => {
        if (!on) disabled(chain.config);
        const body = jsonBody(ctx);
        const count = body.blocks === undefined ? 1 : body.blocks;
        if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > MAX_BLOCKS_PER_CALL) {
          throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "blocks"', { field: 'blocks', details: `expected 1 to ${MAX_BLOCKS_PER_CALL}, got ${JSON.stringify(count)}` });
        }
        const interval = body.intervalMs ?? 0;
        if (typeof interval !== 'number' || !Number.isSafeInteger(interval) || interval < 0 || interval > 86_400_000) {
          throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "intervalMs"', { field: 'intervalMs', details: `expected 0 to 86400000 ms between blocks, got ${JSON.stringify(interval)}` });
        }
        return reply({ blocks: await control.mine(count, interval) });
      },
    },
  ];
}
