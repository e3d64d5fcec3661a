// The development endpoints of a local tpkit node (/api/dev): money from the faucet, blocks on
// demand, the development accounts. A network node has none of them (404).

import { addressFromText, addressToText } from '../codec/address.js';
import { bytesToHex, hexToBytes } from '../bytes.js';
import type { DevAccount } from '../dev-wire.js';
import { toBigInt } from './api-json.js';
import { requestJson, type CallOptions, type HttpSettings, type JsonObject } from './http.js';
import { devControlApi, type DevControlApi } from './dev-control.js';

/** A development account as `startNode().accounts` gives it, with its balances now. */
export interface DevAccountInfo extends DevAccount {
  amount: Record<string, bigint>;
}

export interface MinedBlock {
  hash: string;
  height: number;
  txs: number;
}

export interface DevApi extends DevControlApi {
  /** Credits `amount` of `currency` (default SK) to the address in a block made now. */
  faucet(address: string | Uint8Array, amount: bigint | number, options?: CallOptions & { currency?: string }): Promise<MinedBlock>;
  /** Makes `blocks` blocks now (default 1), with whatever is pending; `intervalMs` moves the node clock before each. */
  mine(blocks?: number, options?: CallOptions & { intervalMs?: number }): Promise<MinedBlock[]>;
  accounts(options?: CallOptions): Promise<DevAccountInfo[]>;
}

const block = (b: JsonObject): MinedBlock => ({ hash: String(b.hash ?? b.block), height: Number(toBigInt(b.height) ?? 0n), txs: Number(toBigInt(b.txs) ?? 0n) });

export function devApi(http: HttpSettings): DevApi {
  return {
    ...devControlApi(http),
    async faucet(address, amount, options = {}) {
      const text = typeof address === 'string' ? addressToText(addressFromText(address)) : addressToText(address);
      const answer = await requestJson(http, '/api/dev/faucet', {
        method: 'POST',
        json: { address: text, amount: String(amount), currency: options.currency ?? 'SK' },
        signal: options.signal,
      });
      return block(answer);
    },
    async mine(blocks = 1, options = {}) {
      const json = options.intervalMs ? { blocks, intervalMs: options.intervalMs } : { blocks };
      const answer = await requestJson(http, '/api/dev/mine', { method: 'POST', json, signal: options.signal });
      return (answer.blocks as JsonObject[]).map(block);
    },
    async accounts(options = {}) {
      const answer = await requestJson(http, '/api/dev/accounts', { signal: options.signal });
      return (answer.accounts as JsonObject[]).map((a) => {
        const amount: Record<string, bigint> = {};
        for (const [cur, v] of Object.entries((a.amount ?? {}) as JsonObject)) amount[cur] = toBigInt(v) ?? 0n;
        const publicKey = hexToBytes(String(a.public_key));
        const secretKey = hexToBytes(String(a.secret_key));
        return {
          index: Number(a.index),
          address: String(a.address),
          hex: String(a.hex),
          publicKey,
          publicKeyHex: bytesToHex(publicKey, true),
          secretKey,
          secretKeyHex: bytesToHex(secretKey),
          amount,
        };
      });
    },
  };
}
