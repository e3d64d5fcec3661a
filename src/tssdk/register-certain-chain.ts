// registerCertainChain with proof of work: what the SDK's WalletApi.registerCertainChain does
// (bootstrap the chain's nodes, derive the seed's key at the allocation block, register, wait
// for the address), with the register body mined to the chain's `current.register.diff`.

import { AbortError, ArgumentError, TpkitError } from '../errors.js';
import { composeMinedRegisterTX, registerDifficulty, type ProofOfWorkOptions } from './compose-register.js';
import type { TssdkKeyPair, TssdkModule, TssdkNetwork } from './sdk-shape.js';

export interface RegisterCertainChainArgs extends ProofOfWorkOptions {
  chain: number;
  customSeed?: string;
  /** The SDK's default is true: only HTTPS nodes. A local node needs false. */
  isHTTPSNodesOnly?: boolean;
  referrer?: string;
  /** Status polls, one a second, before giving up (the SDK's default 60). */
  timeout?: number;
  /** A NetworkApi already bootstrapped for `chain` (default: a new one, as the SDK makes). */
  network?: TssdkNetwork;
  /** Called with the difficulty once the settings are read, before mining. */
  onDifficulty?: (difficulty: number) => void;
}

/** The SDK's result: the same four fields. */
export interface RegisteredChainWallet {
  chain: number;
  wif: string;
  address: string;
  seed: string;
}

const POLL_MS = 1000;

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError('registration aborted while waiting for its block'));
    const done = () => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new AbortError('registration aborted while waiting for its block'));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** The SDK's status answer: the address when included, a TX_FAILED when refused, undefined while pending. */
function statusAddress(txid: string, status: unknown): string | undefined {
  const s = status as { ok?: unknown; res?: unknown; error?: unknown } | null;
  if (s?.error) throw new TpkitError('TX_FAILED', 'Transaction failed', { details: `${txid}: ${typeof s.error === 'string' ? s.error : JSON.stringify(s.error)}` });
  if (s?.ok === true && typeof s.res === 'string' && s.res !== '') return s.res;
  if (s?.ok === false) throw new TpkitError('TX_FAILED', 'Transaction failed', { details: `${txid}: ${JSON.stringify(s.res)}` });
  return undefined;
}

/**
 * The key the SDK's own registration derives, so the wallet is the one it would have made: 2.1
 * passes block and group, 2.2 a path with the block first (told apart by the function's arity).
 */
function keyPairOf(sdk: TssdkModule, seed: string, block: number, group: number) {
  const derive = sdk.CryptoApi.generateKeyPairFromSeedPhrase;
  if (derive.length >= 3) return (derive as (s: string, b: number, g: number) => Promise<TssdkKeyPair>).call(sdk.CryptoApi, seed, block, group);
  return (derive as (s: string, path: string) => Promise<TssdkKeyPair>).call(sdk.CryptoApi, seed, `m/44/31337'/0'/${block}'/${group}'`);
}

/**
 * In place of `WalletApi.registerCertainChain(args)`: `registerCertainChain(tssdk, args)`, where
 * `tssdk` is the wallet's `import * as tssdk from '@thepowereco/tssdk'`.
 */
export async function registerCertainChain(sdk: TssdkModule, args: RegisterCertainChainArgs): Promise<RegisteredChainWallet> {
  if (typeof sdk?.NetworkApi !== 'function' || typeof sdk.CryptoApi?.generateKeyPairFromSeedPhrase !== 'function') {
    throw new ArgumentError('"sdk" expected the @thepowereco/tssdk module (NetworkApi and CryptoApi)');
  }
  const { chain, signal } = args;
  if (!Number.isInteger(chain)) throw new ArgumentError(`"chain" expected an integer, got ${String(chain)}`);
  const timeout = args.timeout ?? 60;
  const seed = args.customSeed || sdk.CryptoApi.generateSeedPhrase();
  let network = args.network;
  if (!network) {
    network = new sdk.NetworkApi(chain, args.isHTTPSNodesOnly ?? true);
    await network.bootstrap();
  }
  // SDK 2.1 answers GET /api/settings whole; SDK 2.2 unwraps `current`.
  type Alloc = { allocblock?: { block?: unknown; group?: unknown } };
  const settings = (await network.getNodeSettings()) as (Alloc & { current?: Alloc }) | null;
  const alloc = settings?.current?.allocblock ?? settings?.allocblock;
  if (typeof alloc?.block !== 'number' || typeof alloc.group !== 'number') {
    throw new TpkitError('BAD_RESPONSE', 'Node settings hold no allocation block', { details: `current.allocblock = ${JSON.stringify(alloc)}`, field: 'current.allocblock' });
  }
  const difficulty = registerDifficulty(settings);
  args.onDifficulty?.(difficulty);
  const keyPair = await keyPairOf(sdk, seed, alloc.block, alloc.group);
  const wif = keyPair.toWIF();
  const { tx } = await composeMinedRegisterTX(wif, { ...args, difficulty });
  if (signal?.aborted) throw new AbortError('registration aborted before it was sent');
  const { txid } = await network.createTransaction({ tx });
  if (typeof txid !== 'string') throw new TpkitError('BAD_RESPONSE', 'The node answered no txid', { details: 'POST /api/tx/new' });
  for (let count = 0; count <= timeout; count++) {
    const address = statusAddress(txid, await network.getTransactionStatus(txid));
    if (address !== undefined) return { chain, wif, address, seed };
    await pause(POLL_MS, signal);
  }
  throw new TpkitError('TIMEOUT', 'Registration not included in time', { details: `${txid}: ${timeout} status reads, one a second` });
}
