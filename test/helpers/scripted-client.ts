// A client whose fetch answers from a script, and the answers and names its tests share
// (test/unit/client*.test.ts).

import { createClient } from '../../src/client/index.js';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { encodeTxid } from '../../src/codec/txid.js';
export type Script = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** A client whose fetch answers from `script` and records every request. */
export function scripted(script: Script, options: { baseUrl?: string; allowInsecure?: boolean; timeoutMs?: number } = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    calls.push({ url: url.href, init });
    return script(url, init);
  }) as typeof globalThis.fetch;
  const client = createClient({ baseUrl: options.baseUrl ?? 'http://127.0.0.1:43280', fetch, allowInsecure: options.allowInsecure, timeoutMs: options.timeoutMs });
  return { client, calls };
}

export const json = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } });
export const ADDR = addressToText(makeAddress({ group: 10, block: 1, wallet: 7 }));
export const OTHER = addressToText(makeAddress({ group: 10, block: 1, wallet: 8 }));
export const TXID = encodeTxid({ chain: 1, height: 5, timeNs: 1_700_000_000_000_000_000n, node: 'tpkit' });
export const TX = new Uint8Array([0x81, 0xa3, 0x76, 0x65, 0x72, 0x02]);
export const never = (_url: URL, init: RequestInit) => new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
