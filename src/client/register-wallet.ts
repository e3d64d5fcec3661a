// registerWallet: the whole registration a wallet performs. Read the node's difficulty,
// mine the register body, sign it with every key, submit, wait for the block, and return
// the address the node allocated.

import { addressFromText, addressToText } from '../codec/address.js';
import type { RegisterBodyInput } from '../codec/body-types.js';
import { publicKeyOf, toSecretKeyBytes, type SecretKeyInput } from '../crypto/keys.js';
import { signTx } from '../crypto/sign-tx.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { MAX_MINE_DIFFICULTY } from '../pow/bits.js';
import { estimateMining, type MiningEstimate } from '../pow/estimate.js';
import type { MineResult } from '../pow/mine-body.js';
import { mineRegister } from '../pow/mine-register.js';
import type { MinerPool, MiningProgress } from '../pow/search.js';
import { toBigInt } from './api-json.js';
import type { TpkitClient } from './client.js';
import { ApiError, TxFailedError } from './client-errors.js';

export type RegisterStage = 'settings' | 'mining' | 'submitting' | 'waiting';

export interface RegisterWalletOptions {
  client: TpkitClient;
  /**
   * The new wallet's key, or all of its keys; every key signs and `h` covers them all. Each
   * is 32 bytes or 64 hex digits (`0x` optional).
   */
  secretKeys: SecretKeyInput | readonly SecretKeyInput[];
  /** Mining threads (default: every thread of the pool). */
  threads?: number;
  /** Miner pool (default: the process's shared pool, or the page's Web Worker pool). */
  pool?: MinerPool;
  /** User data for the body's `e` map. */
  extra?: RegisterBodyInput['extra'];
  /** Longest wait for inclusion in ms (default 60000). */
  timeoutMs?: number;
  /**
   * The most proof of work mined without being told (default 28 bits: a median of about
   * 19 s at 10 MH/s). A node asking for more gets DIFFICULTY_TOO_HIGH, with the expected
   * time, before any mining; raise it to mine anyway.
   */
  maxDifficulty?: number;
  /** Hashes per second the expected time in that error assumes (default 10 M, a desktop with every thread). */
  hashRate?: number;
  signal?: AbortSignal;
  onProgress?: (progress: MiningProgress) => void;
  /** Milliseconds between onProgress calls (default 250). */
  progressIntervalMs?: number;
  /** Called as each stage starts; 'mining' comes with the difficulty. */
  onStage?: (stage: RegisterStage, difficulty?: number) => void;
}

export interface RegisteredWallet {
  /** The new wallet's text address. */
  address: string;
  txid: string;
  /** Hash of the block that holds the registration. */
  block?: string;
  /** The node's `current.register.diff` that the body was mined to. */
  difficulty: number;
  mined: MineResult;
}

export const DEFAULT_MAX_DIFFICULTY = 28;
const REFERENCE_HASH_RATE = 10_000_000;

/** The node asked for more proof of work than the caller agreed to mine. */
export class DifficultyTooHighError extends TpkitError {
  override name = 'DifficultyTooHighError';
  readonly difficulty: number;
  readonly maxDifficulty: number;
  readonly expected: MiningEstimate;

  constructor(difficulty: number, maxDifficulty: number, hashRate: number) {
    const expected = estimateMining(difficulty, hashRate);
    super('DIFFICULTY_TOO_HIGH', 'The node asks for more proof of work than allowed', {
      details: `${difficulty} bits, maxDifficulty ${maxDifficulty}: a median of ${roughDuration(expected.medianMs)} (95 % within ${roughDuration(expected.p95Ms)}) at ${hashRate / 1e6} MH/s`,
      field: 'current.register.diff',
    });
    this.difficulty = difficulty;
    this.maxDifficulty = maxDifficulty;
    this.expected = expected;
  }
}

/** A time a person weighs before waiting: seconds, or hours. */
const roughDuration = (ms: number) => (ms < 3.6e6 ? `${Math.round(ms / 1000)} s` : `${(ms / 3.6e6).toFixed(1)} h`);

function boundedInteger(value: unknown, label: string, max: number): void {
  if (!(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max)) {
    throw new ArgumentError(`"${label}" expected an integer 0..${max}, got ${String(value)}`);
  }
}

/** `current.register.diff`; a node without register settings requires no proof of work. */
async function registerDifficulty(client: TpkitClient, signal: AbortSignal | undefined): Promise<number> {
  let settings: unknown;
  try {
    settings = await client.getSettings('current/register', { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 0;
    throw err;
  }
  const diff = toBigInt((settings as Record<string, unknown> | null)?.diff ?? 0);
  if (diff === undefined || diff < 0n || diff > 512n) {
    throw new TpkitError('BAD_RESPONSE', 'Node settings hold no usable difficulty', {
      details: `current.register.diff = ${JSON.stringify(String((settings as any)?.diff))}`,
      field: 'current.register.diff',
    });
  }
  return Number(diff);
}

export async function registerWallet(options: RegisterWalletOptions): Promise<RegisteredWallet> {
  const { client, signal } = options;
  const given = options.secretKeys;
  const list: readonly SecretKeyInput[] = given instanceof Uint8Array || typeof given === 'string' ? [given] : Array.isArray(given) ? given : [];
  if (list.length === 0) throw new ArgumentError('"secretKeys" expected a secret key or a non-empty array of them');
  const keys = list.map((key, i) => toSecretKeyBytes(key, list === given ? `secretKeys[${i}]` : 'secretKeys'));
  const maxDifficulty = options.maxDifficulty ?? DEFAULT_MAX_DIFFICULTY;
  boundedInteger(maxDifficulty, 'maxDifficulty', MAX_MINE_DIFFICULTY);
  const hashRate = options.hashRate ?? REFERENCE_HASH_RATE;
  if (!(Number.isFinite(hashRate) && hashRate > 0)) throw new ArgumentError(`"hashRate" expected a positive number, got ${String(hashRate)}`);

  client.checkTransport();
  options.onStage?.('settings');
  const difficulty = await registerDifficulty(client, signal);
  if (difficulty > maxDifficulty) throw new DifficultyTooHighError(difficulty, maxDifficulty, hashRate);
  options.onStage?.('mining', difficulty);
  const mined = await mineRegister({
    publicKeys: keys.map(publicKeyOf),
    extra: options.extra,
    difficulty,
    threads: options.threads,
    pool: options.pool,
    signal,
    onProgress: options.onProgress,
    progressIntervalMs: options.progressIntervalMs,
  });
  const tx = signTx(mined.body, keys);
  options.onStage?.('submitting');
  const txid = await client.submitTx(tx, { signal });
  options.onStage?.('waiting');
  const status = await client.waitForTx(txid, { signal, timeoutMs: options.timeoutMs });
  if (!status.ok) throw new TxFailedError(txid, status.reason);
  const allocated = status.address ?? status.res;
  let address: string;
  try {
    address = addressToText(addressFromText(allocated));
  } catch (err) {
    throw new TpkitError('BAD_RESPONSE', 'Registration result holds no address', { details: `${txid}: ${JSON.stringify(allocated)}`, cause: err });
  }
  const result: RegisteredWallet = { address, txid, difficulty, mined };
  if (status.block !== undefined) result.block = status.block;
  return result;
}
