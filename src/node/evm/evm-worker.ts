// The EVM thread's script: one EvmRunner, fed runs by the main thread (evm-thread.ts). What a
// run reads of the ledger the main thread answers by message (it owns the ledger); the
// caller's and the callee's account and code come with the run, so a simple call asks little.
// A run that never ends is the main thread's to stop: it terminates this thread.

import { parentPort, workerData } from 'node:worker_threads';
import { EvmRunner, type EvmMessage } from './runner.js';
import type { AsyncEvmLedger, EvmAccount } from './state.js';

/** From the main thread: a run, or the answer to a read. */
export type ToEvmThread =
  | { type: 'run'; message: EvmMessage; accounts: [string, EvmAccount | undefined][]; code: [string, Uint8Array | undefined][] }
  | { type: 'answer'; id: number; value: EvmAccount | Uint8Array | undefined };

/** To the main thread. */
export type FromEvmThread =
  | { type: 'ready' }
  | { type: 'read'; id: number; what: 'account' | 'code' | 'storage'; key: string; slot?: string }
  | { type: 'done'; run: unknown }
  | { type: 'failed'; message: string; code?: string };

const port = parentPort!;
const { chainId, blockGasLimit } = workerData as { chainId: bigint; blockGasLimit: bigint };
const runner = await EvmRunner.create(chainId, blockGasLimit);
const waiting = new Map<number, (value: unknown) => void>();
let nextRead = 0;

function ask<T>(what: 'account' | 'code' | 'storage', key: string, slot?: string): Promise<T> {
  return new Promise<T>((resolve) => {
    const id = nextRead++;
    waiting.set(id, resolve as (value: unknown) => void);
    port.postMessage({ type: 'read', id, what, key, ...(slot === undefined ? {} : { slot }) } satisfies FromEvmThread);
  });
}

/** The ledger of one run: each key asked once (the state does not move under a run). */
function ledgerOf(m: Extract<ToEvmThread, { type: 'run' }>): AsyncEvmLedger {
  const accounts = new Map<string, EvmAccount | undefined | Promise<EvmAccount | undefined>>(m.accounts);
  const code = new Map<string, Uint8Array | undefined | Promise<Uint8Array | undefined>>(m.code);
  const storage = new Map<string, Uint8Array | undefined | Promise<Uint8Array | undefined>>();
  const once = <T>(map: Map<string, T | Promise<T>>, key: string, read: () => Promise<T>) => {
    if (map.has(key)) return map.get(key)!;
    const p = read();
    map.set(key, p);
    return p;
  };
  return {
    account: (key) => once(accounts, key, () => ask('account', key)),
    code: (key) => once(code, key, () => ask('code', key)),
    storage: (key, slot) => once(storage, key + slot, () => ask('storage', key, slot)),
  };
}

port.on('message', (m: ToEvmThread) => {
  if (m.type === 'answer') {
    const resolve = waiting.get(m.id);
    waiting.delete(m.id);
    resolve?.(m.value);
    return;
  }
  runner.run(ledgerOf(m), m.message).then(
    (run) => port.postMessage({ type: 'done', run } satisfies FromEvmThread),
    (err: unknown) => port.postMessage({ type: 'failed', message: err instanceof Error ? err.message : String(err), code: (err as { code?: string }).code } satisfies FromEvmThread),
  );
});
port.postMessage({ type: 'ready' } satisfies FromEvmThread);
