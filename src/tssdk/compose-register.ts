// composeRegisterTX with proof of work: the SDK's register transaction (kind 17, `h` over the
// WIF's public key, `e.referrer` when given) mined to a difficulty with tpkit's miner and
// signed by tpkit's signer, in the SDK's form (base64 container) for its createTransaction.

import { bytesToBase64 } from '../bytes.js';
import { publicKeyOf } from '../crypto/keys.js';
import { signTx } from '../crypto/sign-tx.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { wifToSecretKey } from '../keys/wif.js';
import { MAX_MINE_DIFFICULTY } from '../pow/bits.js';
import { estimateMining } from '../pow/estimate.js';
import type { MineResult } from '../pow/mine-body.js';
import { mineRegister } from '../pow/mine-register.js';
import type { MinerPool, MiningProgress } from '../pow/search.js';

export interface ProofOfWorkOptions {
  signal?: AbortSignal;
  onProgress?: (progress: MiningProgress) => void;
  /** Milliseconds between onProgress calls (default 250). */
  progressIntervalMs?: number;
  /** Miner pool: Node's worker threads by default; in a browser, `sharedWebMinerPool()` of tpkit/browser. */
  pool?: MinerPool;
  threads?: number;
  /** Hash on the calling thread too until the pool's threads start (default true); false keeps a page's thread free. */
  callingThread?: boolean;
  /** The most proof of work mined without being told (default 28 bits, ~19 s at 10 MH/s). */
  maxDifficulty?: number;
}

export interface ComposeRegisterOptions extends ProofOfWorkOptions {
  /** Leading zero bits of SHA-512(body) the chain asks for (`current.register.diff`). */
  difficulty: number;
  /** Written to `e.referrer`, as the SDK does. */
  referrer?: string;
  /** Body time `t` in ms (default now). */
  timestamp?: number;
}

export interface MinedRegisterTx {
  /** The signed container, base64: what `TransactionsApi.composeRegisterTX` returns. */
  tx: string;
  mined: MineResult;
}

export const DEFAULT_MAX_DIFFICULTY = 28;

/**
 * `current.register.diff` of the node's settings, in each form a wallet holds them: GET
 * /api/settings as the node answers it (`{ ok, settings }`), the SDK 2.1's getNodeSettings (the
 * `settings` object) or the SDK 2.2's (its `current` section, known by its `allocblock`). A chain
 * whose settings have `current` but no register section asks for none.
 */
export function registerDifficulty(answer: unknown): number {
  const outer = answer as { settings?: { current?: unknown }; current?: unknown; allocblock?: unknown } | null;
  const current = (outer?.current ?? outer?.settings?.current ?? (outer?.allocblock !== undefined ? outer : undefined)) as { register?: { diff?: unknown } } | undefined;
  if (typeof current !== 'object' || current === null) {
    throw new TpkitError('BAD_RESPONSE', 'Node settings hold no current section', { details: 'expected GET /api/settings, its "settings" object or its "current" section', field: 'current' });
  }
  const diff = current.register?.diff ?? 0;
  const value = typeof diff === 'string' && /^\d+$/.test(diff) ? Number(diff) : diff;
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_MINE_DIFFICULTY)) {
    throw new TpkitError('BAD_RESPONSE', 'Node settings hold no usable difficulty', { details: `current.register.diff = ${JSON.stringify(diff)}`, field: 'current.register.diff' });
  }
  return value;
}

export async function composeMinedRegisterTX(wif: string, options: ComposeRegisterOptions): Promise<MinedRegisterTx> {
  if (typeof options !== 'object' || options === null) throw new ArgumentError('"options" expected an object with a difficulty');
  const { difficulty } = options;
  const maxDifficulty = options.maxDifficulty ?? DEFAULT_MAX_DIFFICULTY;
  if (!(Number.isInteger(maxDifficulty) && maxDifficulty >= 0 && maxDifficulty <= MAX_MINE_DIFFICULTY)) {
    throw new ArgumentError(`"maxDifficulty" expected an integer 0..${MAX_MINE_DIFFICULTY}, got ${String(maxDifficulty)}`);
  }
  if (Number.isInteger(difficulty) && difficulty > maxDifficulty) {
    // Asked before mining: a wallet shows this rather than a page that hashes for hours.
    const expected = estimateMining(difficulty, 10_000_000);
    throw new TpkitError('DIFFICULTY_TOO_HIGH', 'The node asks for more proof of work than allowed', {
      details: `${difficulty} bits, maxDifficulty ${maxDifficulty}: a median of ${Math.round(expected.medianMs / 1000)} s at 10 MH/s`,
      field: 'current.register.diff',
    });
  }
  if (options.referrer !== undefined && typeof options.referrer !== 'string') {
    throw new ArgumentError(`"referrer" expected a string, got ${typeof options.referrer}`);
  }
  const key = wifToSecretKey(wif);
  const mined = await mineRegister({
    publicKeys: [publicKeyOf(key)],
    timestamp: options.timestamp,
    extra: options.referrer ? { referrer: options.referrer } : undefined,
    difficulty,
    pool: options.pool,
    threads: options.threads,
    callingThread: options.callingThread,
    signal: options.signal,
    onProgress: options.onProgress,
    progressIntervalMs: options.progressIntervalMs,
  });
  return { tx: bytesToBase64(signTx(mined.body, key)), mined };
}
