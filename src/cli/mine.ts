// `tpkit mine`: mines a register body for a public key and prints it, or, given the
// secret key file, the signed register transaction ready for POST /api/tx/new.

import { bytesToBase64, bytesToHex } from '../bytes.js';
import { publicKeyOf, normalizePublicKey } from '../crypto/keys.js';
import { signTx } from '../crypto/sign-tx.js';
import { AbortError, ArgumentError } from '../errors.js';
import { estimateMining } from '../pow/estimate.js';
import { availableKernels, type KernelName } from '../pow/kernel.js';
import { MAX_MINE_DIFFICULTY } from '../pow/bits.js';
import { mineRegister } from '../pow/mine-register.js';
import { closeSharedMinerPool, createMinerPool } from '../pow/pool.node.js';
import { openKeyFile } from './key-file.js';
import { Progress, formatCount, formatDuration, formatRate, startingStatus } from './progress.js';
import { PASSPHRASE_HELP, PASSPHRASE_OPTION, passphraseFrom } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit mine --difficulty N (--key FILE | --pubkey HEX) [options]

Mines a register (kind 17) body whose SHA-512 has at least N leading zero bits.
With --pubkey it prints the body; with --key (a key file) it also signs it and prints
the transaction, base64, for POST /api/tx/new.

Options:
  --difficulty N   leading zero bits required (settings.current.register.diff)
  --key FILE       key file from tpkit keygen --out: encrypted (the passphrase comes from
                   --passphrase-file, $TPKIT_PASSPHRASE or a prompt), or the secret key
                   as hex from tpkit keygen --plain
${PASSPHRASE_HELP}
  --pubkey HEX     compressed (33-byte) or uncompressed public key, hex
  --timestamp MS   body time t in milliseconds (default: now)
  --threads N      worker threads (default: one per core)
  --kernel NAME    auto, hybrid, simd, scalar or js (default auto)
  --json           print the result as JSON
  -h, --help       show this help`;

function integerOption(text: string | undefined, label: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ArgumentError(`--${label} expected an integer ${min}..${max}, got '${text}'`);
  }
  return value;
}

/** --pubkey HEX: 33 or 65 bytes of a secp256k1 public key, as hex. */
function pubkeyOption(text: string): Uint8Array {
  try {
    return normalizePublicKey(text, '--pubkey');
  } catch (cause) {
    throw new ArgumentError(`--pubkey is not a public key: '${text}'`, { details: 'expected 66 hex digits (compressed) or 130 (uncompressed)', cause });
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('mine', {
    args: argv,
    options: {
      difficulty: { type: 'string' },
      ...PASSPHRASE_OPTION,
      key: { type: 'string' },
      pubkey: { type: 'string' },
      timestamp: { type: 'string' },
      threads: { type: 'string' },
      kernel: { type: 'string', default: 'auto' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const difficulty = integerOption(values.difficulty, 'difficulty', 0, MAX_MINE_DIFFICULTY);
  if (difficulty === undefined) throw new ArgumentError('--difficulty is required');
  if ((values.key === undefined) === (values.pubkey === undefined)) {
    throw new ArgumentError('expected exactly one of --key FILE and --pubkey HEX');
  }
  const secretKey = values.key !== undefined ? (await openKeyFile(values.key, passphraseFrom(values))).secretKey : undefined;
  const publicKey = secretKey ? publicKeyOf(secretKey) : pubkeyOption(values.pubkey as string);
  if (values.kernel !== 'auto' && !(availableKernels() as string[]).includes(values.kernel)) {
    throw new ArgumentError(`--kernel must be auto or one of ${availableKernels().join(', ')}, got '${values.kernel}'`);
  }
  const timestamp = values.timestamp === undefined ? Date.now() : integerOption(values.timestamp, 'timestamp', 0, Number.MAX_SAFE_INTEGER);
  const threads = integerOption(values.threads, 'threads', 1, 256);

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const progress = new Progress({ label: 'mining' });
  const pool = threads !== undefined ? createMinerPool(threads) : undefined;
  let result;
  try {
    result = await mineRegister({
      publicKeys: [publicKey],
      timestamp,
      difficulty,
      pool,
      kernel: values.kernel as KernelName | 'auto',
      signal: controller.signal,
      // As for register: on a terminal the status shows from the search's first tenth of a second.
      progressIntervalMs: 100,
      onProgress: (p) => {
        if (p.hashes === 0 || !(p.hashRate > 0)) {
          progress.status(startingStatus(p.elapsedMs));
          return;
        }
        const median = estimateMining(difficulty, Math.max(p.hashRate, 1)).medianMs;
        progress.status(`${formatRate(p.hashRate)}, ${formatCount(p.hashes)} hashes, ${formatDuration(p.elapsedMs)}` + ` (median ${formatDuration(median)} at this rate)`);
      },
    });
  } catch (err) {
    if (err instanceof AbortError) {
      progress.clear();
      console.error('tpkit mine: interrupted');
      return 130;
    }
    throw err;
  } finally {
    progress.finish();
    process.removeListener('SIGINT', onSignal);
    if (pool) await pool.destroy();
    else await closeSharedMinerPool();
  }

  const tx = secretKey ? signTx(result.body, [secretKey]) : undefined;
  // The rate of the search itself, not counting worker start-up.
  const hashRate = result.searchMs > 0 ? (result.hashes / result.searchMs) * 1000 : 0;
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          publicKey: bytesToHex(publicKey),
          difficulty,
          nonce: result.nonce.toString(),
          bits: result.bits,
          hashes: result.hashes,
          elapsedMs: result.elapsedMs,
          searchMs: result.searchMs,
          hashRate,
          kernel: result.kernel,
          kernelReason: result.kernelReason,
          ...(result.poolFailure ? { poolFailure: result.poolFailure } : {}),
          body: bytesToHex(result.body),
          bodyBase64: bytesToBase64(result.body),
          ...(tx ? { tx: bytesToBase64(tx) } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    console.log(`nonce ${result.nonce}: ${result.bits} leading zero bits (difficulty ${difficulty})`);
    console.log(
      `${formatCount(result.hashes)} hashes in ${formatDuration(result.searchMs)} of hashing, ${formatRate(hashRate)}, ${result.kernel} kernel (${formatDuration(result.elapsedMs)} with worker start-up)`,
    );
    // The JS fallback or a lone calling thread is slow: say why, so a user can fix it.
    if (result.kernel === 'js' && values.kernel === 'auto') console.error(`note: ${result.kernelReason}`);
    if (result.poolFailure) console.error(`note: the miner threads did not start (${result.poolFailure}); this thread mined alone`);
    console.log(`body (hex):    ${bytesToHex(result.body)}`);
    console.log(`body (base64): ${bytesToBase64(result.body)}`);
    if (tx) console.log(`tx (base64):   ${bytesToBase64(tx)}`);
  }
  return 0;
}
