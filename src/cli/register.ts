// `tpkit register --key FILE`: registers the key file's key as a new wallet. Reads the
// node's difficulty, mines with a progress bar, waits for the block with a spinner, and
// records the new address in the key file.

import { registerWallet } from '../client/index.js';
import { DEFAULT_MAX_DIFFICULTY } from '../client/register-wallet.js';
import { MAX_MINE_DIFFICULTY } from '../pow/bits.js';
import { ArgumentError } from '../errors.js';
import { closeSharedMinerPool } from '../pow/pool.node.js';
import { warmMiner } from '../pow/warm.js';
import { openKeyFile, readKeyFileInfo, setKeyFileWallet } from './key-file.js';
import { originText } from './key-file-origin.js';
import { Progress, formatCount, formatDuration, formatRate, formatUnit, startingStatus } from './progress.js';
import {
  TX_NODE_HELP,
  TX_NODE_OPTIONS,
  PASSPHRASE_HELP,
  PASSPHRASE_OPTION,
  clientFrom,
  interruptSignal,
  keepSpinning,
  holdForPrompt,
  passphraseFrom,
  printJson,
  runWalletCommand,
} from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit register --key FILE [options]

Registers a new wallet for the key in FILE (from tpkit keygen --out): mines the register
transaction to the node's current.register.diff, submits it, waits for the block, prints
the new address and records it in FILE. Ctrl-C stops cleanly (exit 130).

Options:
  --key FILE          key file
  --threads N         mining threads (default: one per core)
  --force             register even though the key file already names a wallet
                      (a tpkit node answers with the wallet the key already has)
  --max-difficulty N  mine at most N bits without asking (default ${DEFAULT_MAX_DIFFICULTY}); a node
                      asking for more is refused with the expected time
${PASSPHRASE_HELP}
${TX_NODE_HELP}`;

/** Records the wallet in the key file; the wallet exists either way, so a failure only warns. */
function saveWallet(path: string, wallet: { address: string; chain?: number; node: string }): boolean {
  const { address } = wallet;
  try {
    setKeyFileWallet(path, wallet);
    return true;
  } catch (err) {
    console.error(`warning: the wallet is registered but ${path} was not updated (${(err as Error).message});\n  pass --from ${address} to tpkit send`);
    return false;
  }
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'register',
    async () => {
      const { values } = parseCommandArgs('register', {
        args: argv,
        options: { ...TX_NODE_OPTIONS, ...PASSPHRASE_OPTION, key: { type: 'string' }, threads: { type: 'string' }, force: { type: 'boolean' }, 'max-difficulty': { type: 'string' } },
      });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (!values.key) throw new ArgumentError('--key is required: the key file to register (tpkit keygen --out FILE makes one)');
      const threads = values.threads === undefined ? undefined : Number(values.threads);
      if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 256)) throw new ArgumentError(`--threads expected an integer 1..256, got '${values.threads}'`);
      const maxText = values['max-difficulty'];
      const maxDifficulty = maxText === undefined ? undefined : Number(maxText);
      if (maxDifficulty !== undefined && !(/^\d+$/.test(maxText!) && maxDifficulty <= MAX_MINE_DIFFICULTY)) {
        throw new ArgumentError(`--max-difficulty expected an integer 0..${MAX_MINE_DIFFICULTY}, got '${maxText}'`);
      }
      // Checked before the passphrase: a key file names one wallet, and a second is rarely meant.
      const known = readKeyFileInfo(values.key);
      holdForPrompt(values, !known.plain);
      if (known.address && !values.force) {
        const where = originText(known);
        throw new ArgumentError(`${values.key} already names wallet ${known.address}${where ? ` (${where})` : ''}`, {
          details: 'use it with `tpkit send --key`, or pass --force to register the key again',
        });
      }
      // The node is asked before the passphrase: scrypt's seconds are wasted on a node that is down.
      const client = clientFrom(values);
      client.checkTransport();
      const chain = (await client.nodeStatus({ signal: interruptSignal() })).chain;
      // The miner starts and warms up while the passphrase is typed and derived (scrypt runs
      // on libuv's threads), so mining starts at full speed. A failure here shows when mining.
      void warmMiner().catch(() => undefined);
      const { secretKey, info } = await openKeyFile(values.key, passphraseFrom(values));
      const bar = new Progress({ width: 10 });
      // Without a terminal the bar is not drawn: each stage is a line on stderr instead, so a
      // log or a pipe shows at once what the command is waiting for.
      const say = (text: string) => {
        if (bar.enabled) bar.status(text);
        else console.error(`register: ${text}`);
      };
      let rateShown = false;
      let stopSpinning = () => {};
      try {
        const result = await registerWallet({
          client,
          secretKeys: [secretKey],
          threads,
          maxDifficulty,
          signal: interruptSignal(),
          // A terminal shows the bar from the first tenth of a second, however short the search.
          progressIntervalMs: 100,
          onStage: (stage, difficulty) => {
            if (stage === 'settings') say(`reading the difficulty from ${client.baseUrl}`);
            if (stage === 'mining') say(`mining ${difficulty} bits`);
            if (stage === 'submitting') say('submitting');
            if (stage === 'waiting') {
              bar.setTotal(undefined);
              say('waiting for a block');
              if (bar.enabled) stopSpinning = keepSpinning(bar);
            }
          },
          onProgress: (p) => {
            // The bar fills toward the hash count 95 % of searches finish within. Each hash
            // is a fresh draw, so the times are from the start: a search past its median is
            // unlucky so far, not nearly done.
            if (p.hashes === 0 || !(p.hashRate > 0)) {
              bar.status(startingStatus(p.elapsedMs));
              return;
            }
            if (!bar.enabled && !rateShown) {
              rateShown = true;
              say(`${formatCount(p.hashRate, 1)}H/s here: a median of ${formatDuration(p.expected.medianMs)}, 95 % within ${formatDuration(p.expected.p95Ms)}`);
            }
            const p95Hashes = (p.expected.p95Ms / 1000) * p.hashRate;
            if (Number.isFinite(p95Hashes) && p95Hashes > 0) bar.setTotal(p95Hashes);
            bar.update(
              p.hashes,
              `${formatRate(p.hashRate, 1)}  ${formatUnit(p.hashes, 'H', 1)}  ${formatDuration(p.elapsedMs)}  ETA median ${formatDuration(p.expected.medianMs)}, p95 ${formatDuration(p.expected.p95Ms)}`,
            );
          },
        });
        stopSpinning();
        bar.finish();
        const saved = info.plain ? 'plain' : saveWallet(values.key, { address: result.address, chain, node: client.baseUrl.replace(/\/+$/, '') });
        if (info.address === result.address) console.error(`note: the node answered with the wallet this key already has, ${result.address}`);
        // The rate of the search itself: worker start-up is not mining.
        const rate = result.mined.searchMs > 0 ? (result.mined.hashes / result.mined.searchMs) * 1000 : 0;
        if (values.json) {
          printJson({
            address: result.address,
            txid: result.txid,
            block: result.block,
            difficulty: result.difficulty,
            hashes: result.mined.hashes,
            elapsedMs: Math.round(result.mined.elapsedMs),
            // to the microsecond: a low-difficulty search takes well under a millisecond
            searchMs: Math.round(result.mined.searchMs * 1000) / 1000,
            hashRate: Math.round(rate),
            savedInKeyFile: saved === true,
          });
        } else {
          console.log(`address  ${result.address}`);
          console.log(`txid     ${result.txid}`);
          console.log(`block    ${result.block ?? '?'}`);
          console.log(
            `mined    difficulty ${result.difficulty}: ${formatCount(result.mined.hashes)} hashes in ${formatDuration(result.mined.searchMs)} of hashing (${formatRate(rate)}), ${formatDuration(result.mined.elapsedMs)} with worker start-up`,
          );
          if (result.mined.kernel === 'js') console.error(`note: ${result.mined.kernelReason}`);
          if (result.mined.poolFailure) console.error(`note: the miner threads did not start (${result.mined.poolFailure}); this thread mined alone`);
          if (saved === true) console.log(`saved    the address in ${values.key}`);
          if (saved === 'plain') console.error(`note: ${values.key} is plain hex and keeps no address; pass --from ${result.address} to tpkit send`);
        }
        return 0;
      } finally {
        stopSpinning();
        bar.clear();
        await closeSharedMinerPool();
      }
    },
    argv,
  );
}
