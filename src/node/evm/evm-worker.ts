// The EVM thread's script: one EvmRunner, fed runs by the main thread (evm-thread.ts). What a
// run reads of the ledger the main thread answers by message (it owns the ledger); the
// caller's and the callee's account and code come with the run, so a simple call asks little.
// The runs of one block share the code and storage read so far (a session), kept true by the
// changes the main thread sends with each run. A run that never ends is the main thread's to
// stop: it terminates this thread.

import { parentPort, workerData } from 'node:worker_threads';
import { EvmRunner, type EvmMessage } from './runner.js';
import type { AsyncEvmLedger, EvmAccount, EvmChanges } from './state.js';

/** A session's news for the thread: start afresh (`reset`), then apply `changes` in order. */
export interface SessionUpdate {
  reset: boolean;
  changes: Pick<EvmChanges, 'code' | 'storage'>[];
}

/** From the main thread: a run, or the answer to a read. */
export type ToEvmThread =
  | { type: 'run'; message: EvmMessage; accounts: [string, EvmAccount | undefined][]; code: [string, Uint8Array | undefined][]; session?: SessionUpdate }
  | { type: 'answer'; id: number; value: EvmAccount | Uint8Array | undefined };

/** To the main thread. */
export type FromEvmThread =
  | { type: 'ready' }
  | { type: 'read'; id: number; what: 'account' | 'code' | 'storage'; key: string; slot?: string }
  | { type: 'done'; run: unknown }
  | { type: 'failed'; message: string; code?: string };

type Known<T> = Map<string, T | undefined | Promise<T | undefined>>;

const port = parentPort!;
const { chainId, blockGasLimit, baseFee } = workerData as { chainId: bigint; blockGasLimit: bigint; baseFee: bigint };
const runner = await EvmRunner.create(chainId, blockGasLimit, baseFee);
const waiting = new Map<number, (value: unknown) => void>();
let nextRead = 0;
/** The current session's code and storage (storage keyed by EVM key + slot). */
let session: { code: Known<Uint8Array>; storage: Known<Uint8Array> } = { code: new Map(), storage: new Map() };

function ask<T>(what: 'account' | 'code' | 'storage', key: string, slot?: string): Promise<T> {
  return new Promise<T>((resolve) => {
    const id = nextRead++;
    waiting.set(id, resolve as (value: unknown) => void);
    port.postMessage({ type: 'read', id, what, key, ...(slot === undefined ? {} : { slot }) } satisfies FromEvmThread);
  });
}

function applySession(update: SessionUpdate): void {
  if (update.reset) session = { code: new Map(), storage: new Map() };
  for (const changes of update.changes) {
    for (const [key, code] of changes.code) session.code.set(key, code);
    for (const [key, slots] of changes.storage) for (const [slot, value] of slots) session.storage.set(key + slot, value);
  }
}

/** The ledger of one run: each key asked once (the state does not move under a run, nor under a session but by its changes). */
function ledgerOf(m: Extract<ToEvmThread, { type: 'run' }>): AsyncEvmLedger {
  const accounts: Known<EvmAccount> = new Map(m.accounts);
  let code: Known<Uint8Array>;
  let storage: Known<Uint8Array>;
  if (m.session) {
    applySession(m.session);
    ({ code, storage } = session);
    // The session's copy is as true as the one sent, and its code hash is already known.
    for (const [key, value] of m.code) if (!code.has(key)) code.set(key, value);
  } else {
    code = new Map(m.code);
    storage = new Map();
  }
  const once = <T>(map: Known<T>, key: string, read: () => Promise<T | undefined>) => {
    if (map.has(key)) return map.get(key);
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
