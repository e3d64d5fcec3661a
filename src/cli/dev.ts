// `tpkit dev <action>`: the test controls of a local tpkit node from the shell: snapshot,
// revert, rollback, the node clock, spaced mining, state setting and injected faults.

import { ArgumentError } from '../errors.js';
import type { FaultRuleSpec } from '../client/dev-control.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, parseAmount, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit dev ACTION [ARGUMENTS] [options]

Test controls of a local tpkit node (its development API, on unless --no-dev-api):

  snapshot [NAME]                  record the whole state; prints its id (a NAME given
                                   again moves to the new snapshot)
  snapshot --list                  list the snapshots
  snapshot --delete ID|NAME        forget one
  revert ID|NAME                   back to a snapshot (it stays valid; later ones are dropped)
  rollback HEIGHT                  drop the blocks above HEIGHT; their transactions are unknown again
  time [--offset MS | --set MS|ISO] show or move the node clock (block times, the ±1 h window)
  mine [--blocks N] [--interval-ms MS]
                                   make N blocks now, the clock moved MS before each
  set-balance ADDRESS AMOUNT [--currency CUR]
                                   set a balance to exactly AMOUNT, no block
  set-seq ADDRESS SEQ              set a wallet's seq
  create-wallet (--pubkey HEX | --address ADDRESS)
                                   a wallet without mining
  faults [--add JSON | --clear [ID,…]]
                                   list, add or clear injected faults (--clear alone
                                   clears them all), e.g.
                                   --add '{"path":"tx/new","action":"error","status":503,"count":2}'

Options:
  --currency CUR      set-balance currency (default SK)
${NODE_HELP}`;

const OPTIONS = {
  ...NODE_OPTIONS,
  list: { type: 'boolean' },
  delete: { type: 'string' },
  offset: { type: 'string' },
  set: { type: 'string' },
  blocks: { type: 'string' },
  'interval-ms': { type: 'string' },
  currency: { type: 'string' },
  pubkey: { type: 'string' },
  address: { type: 'string' },
  add: { type: 'string' },
  clear: { type: 'string' },
} as const;

function integer(text: string, label: string): number {
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text))) throw new ArgumentError(`${label} expected an integer, got '${text}'`);
  return Number(text);
}

/** --set takes milliseconds since the epoch or an ISO date. */
function timeArg(text: string): number {
  if (/^\d+$/.test(text.trim())) return integer(text, '--set');
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new ArgumentError(`--set expected ms since the epoch or an ISO date, got '${text}'`, { details: 'e.g. --set 2030-01-01T00:00:00Z' });
  return ms;
}

function faultRules(text: string): FaultRuleSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ArgumentError(`--add expected a JSON rule, got '${text}'`, { details: `e.g. '{"path":"tx/new","action":"drop","count":1}'` });
  }
  return (Array.isArray(parsed) ? parsed : [parsed]) as FaultRuleSpec[];
}

/** `--clear` alone clears every rule: parseArgs has no optional values, so a bare one becomes `--clear=all`. */
function bareClear(argv: string[]): string[] {
  return argv.map((arg, i) => (arg === '--clear' && !/^(all|\d+(,\d+)*)$/.test(argv[i + 1] ?? '') ? '--clear=all' : arg));
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'dev',
    async () => {
      const { values, positionals } = parseCommandArgs('dev', { args: bareClear(argv), allowPositionals: true, options: OPTIONS }, ['--offset']);
      const [action, ...args] = positionals;
      if (values.help || action === undefined) {
        console.log(HELP);
        return action === undefined && !values.help ? 2 : 0;
      }
      const client = clientFrom(values);
      const dev = client.dev;
      const call = { signal: interruptSignal() };
      const expect = (n: number, usage: string) => {
        if (args.length !== n) throw new ArgumentError(`tpkit dev ${action} takes ${usage}`, { details: 'see `tpkit dev --help`' });
      };
      const show = (json: unknown, text: string) => (values.json ? printJson(json) : console.log(text));
      switch (action) {
        case 'snapshot': {
          if (values.list) {
            expect(0, 'no argument with --list');
            const list = await dev.snapshots(call);
            show(list, list.length ? list.map((s) => `${s.id}${s.name ? ` (${s.name})` : ''}  height ${s.height}  taken ${new Date(s.createdAt).toISOString()}`).join('\n') : 'no snapshots');
          } else if (values.delete !== undefined) {
            expect(0, 'no argument with --delete');
            await dev.deleteSnapshot(values.delete, call);
            show({ deleted: values.delete }, `deleted snapshot ${values.delete}`);
          } else {
            if (args.length > 1) expect(1, 'at most a NAME');
            const s = await dev.snapshot(args[0], call);
            show(s, `snapshot ${s.id}${s.name ? ` (${s.name})` : ''} at height ${s.height}`);
          }
          return 0;
        }
        case 'revert': {
          expect(1, 'a snapshot ID or NAME');
          const moved = await dev.revert(args[0], call);
          show(moved, `reverted to snapshot ${args[0]}: height ${moved.height} (${moved.hash})`);
          return 0;
        }
        case 'rollback': {
          expect(1, 'a HEIGHT');
          const moved = await dev.rollback(integer(args[0], 'HEIGHT'), call);
          show(moved, `rolled back to height ${moved.height} (${moved.hash})`);
          return 0;
        }
        case 'time': {
          expect(0, 'no argument (use --offset or --set)');
          if (values.offset !== undefined && values.set !== undefined) throw new ArgumentError('give --offset or --set, not both');
          const moved =
            values.offset !== undefined
              ? await dev.setTime({ offsetMs: integer(values.offset, '--offset') }, call)
              : values.set !== undefined
                ? await dev.setTime({ setMs: timeArg(values.set) }, call)
                : undefined;
          const now = moved ? { now: moved.now, offsetMs: moved.clockOffsetMs } : await dev.time(call);
          show(now, `node clock ${new Date(now.now).toISOString()} (${now.offsetMs >= 0 ? '+' : ''}${now.offsetMs} ms from the system clock)`);
          return 0;
        }
        case 'mine': {
          expect(0, 'no argument (use --blocks and --interval-ms)');
          const blocks = values.blocks === undefined ? 1 : integer(values.blocks, '--blocks');
          const intervalMs = values['interval-ms'] === undefined ? undefined : integer(values['interval-ms'], '--interval-ms');
          const made = await dev.mine(blocks, { ...call, intervalMs });
          show(made, made.map((b) => `block ${b.height} ${b.hash} (${b.txs} txs)`).join('\n'));
          return 0;
        }
        case 'set-balance': {
          expect(2, 'an ADDRESS and an AMOUNT');
          const amount = parseAmount(args[1], 'AMOUNT', { allowZero: true });
          const currency = values.currency ?? 'SK';
          await dev.setBalance(args[0], amount, { ...call, currency });
          show({ address: args[0], currency, amount }, `${args[0]} holds ${amount} ${currency}`);
          return 0;
        }
        case 'set-seq': {
          expect(2, 'an ADDRESS and a SEQ');
          const seq = parseAmount(args[1], 'SEQ', { allowZero: true });
          await dev.setSeq(args[0], seq, call);
          show({ address: args[0], seq }, `${args[0]} seq ${seq}`);
          return 0;
        }
        case 'create-wallet': {
          expect(0, 'no argument (use --pubkey or --address)');
          if (values.pubkey === undefined && values.address === undefined) throw new ArgumentError('give --pubkey HEX or --address ADDRESS');
          const address = await dev.createWallet(values.pubkey !== undefined ? { publicKey: values.pubkey, address: values.address } : { address: values.address! }, call);
          show({ address }, `wallet ${address}`);
          return 0;
        }
        case 'faults': {
          expect(0, 'no argument (use --add or --clear)');
          if (values.add !== undefined) await dev.addFaults(faultRules(values.add), call);
          if (values.clear !== undefined) await dev.clearFaults(values.clear === '' || values.clear === 'all' ? undefined : values.clear.split(',').map((id) => integer(id, '--clear')), call);
          const list = await dev.faults(call);
          show(
            list,
            list.length
              ? list
                  .map(
                    (f) =>
                      `${f.id}: ${f.method ?? 'any'} ${f.path} ${f.action}${f.status ? ` ${f.status} ${f.code}` : ''}${f.delayMs ? ` ${f.delayMs} ms` : ''}, fired ${f.fired}${f.count ? `/${f.count}` : ''}`,
                  )
                  .join('\n')
              : 'no faults',
          );
          return 0;
        }
        default:
          throw new ArgumentError(`unknown action '${action}'`, { details: 'one of snapshot, revert, rollback, time, mine, set-balance, set-seq, create-wallet, faults; see `tpkit dev --help`' });
      }
    },
    argv,
  );
}
