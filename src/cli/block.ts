// `tpkit block ID`: a block's header and a table of its transactions. ID is a hash, a height,
// `latest` (or `last`) or `genesis`.

import { addressToText } from '../codec/address.js';
import { hexToBytes } from '../bytes.js';
import { ArgumentError } from '../errors.js';
import { NODE_HELP, NODE_OPTIONS, clientFrom, interruptSignal, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const HELP = `Usage: tpkit block ID [options]

Shows a block: hash, height, parent, time, and one line per transaction (txid, kind, from,
to, amount, result). ID is a block hash, a height, latest or genesis.

Options:
${NODE_HELP}`;

interface TxView {
  kind?: string;
  from?: string;
  to?: string;
  address?: string;
  seq?: number | bigint;
  t?: number | bigint;
  payload?: { purpose: string | number; cur: string; amount: number | bigint | string }[];
  body?: string;
  sig?: { extra?: { pubkey?: string } }[];
}

const text = (hex: string | undefined) => {
  if (!hex) return '';
  try {
    return addressToText(hexToBytes(hex));
  } catch {
    return hex;
  }
};

const iso = (ms: unknown) => {
  const date = new Date(Number(ms));
  return ms === undefined || Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** `name` as text (null when not a valid address) and `nameHex` as 0x hex, when the node gave one. */
function addressPair(name: string, hex: string | undefined): Record<string, string | null> {
  if (!hex) return {};
  const text = (() => {
    try {
      return addressToText(hexToBytes(hex));
    } catch {
      return null;
    }
  })();
  return { [name]: text, [`${name}Hex`]: `0x${hex.replace(/^0x/i, '').toUpperCase()}` };
}

/** The block as data: text addresses with their hex beside, times in ms with their ISO date beside. */
export function blockJson(block: Record<string, any>): Record<string, unknown> {
  const failed = (block.failed ?? {}) as Record<string, string>;
  const txs = Object.entries((block.txs ?? {}) as Record<string, TxView>).map(([txid, tx]) => ({
    txid,
    kind: tx.kind ?? null,
    ...addressPair('from', tx.from),
    ...addressPair('to', tx.to),
    ...addressPair('address', tx.address),
    ...(tx.seq !== undefined ? { seq: String(tx.seq) } : {}),
    ...(tx.t !== undefined ? { timestamp: tx.t, timestampIso: iso(tx.t) } : {}),
    payload: (tx.payload ?? []).map((p) => ({ purpose: p.purpose, currency: p.cur, amount: String(p.amount) })),
    result: failed[txid] ? 'failed' : 'ok',
    ...(failed[txid] ? { reason: failed[txid] } : {}),
    signers: (tx.sig ?? []).map((s) => s.extra?.pubkey).filter((k): k is string => typeof k === 'string'),
    body: tx.body ?? null,
  }));
  const header = block.header ?? {};
  return { hash: block.hash, height: header.height, parent: header.parent, time: block.time, timeIso: iso(block.time), header, txs };
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'block',
    async () => {
      const { values, positionals } = parseCommandArgs('block', { args: argv, allowPositionals: true, options: NODE_OPTIONS });
      if (values.help) {
        console.log(HELP);
        return 0;
      }
      if (positionals.length !== 1) throw new ArgumentError('Give one block: a hash, a height, latest or genesis', { details: 'see `tpkit block --help`' });
      const typed = positionals[0];
      // Checked here so the message speaks of the command's ID, not the client's argument.
      if (!/^(latest|last|genesis|\d{1,15}|(0x)?[0-9a-fA-F]{64})$/.test(typed)) {
        throw new ArgumentError(`expected a block hash (64 hex digits), a height, latest or genesis, got '${typed}'`, { details: 'see `tpkit block --help`' });
      }
      const id = typed === 'latest' ? 'last' : typed;
      const block = await clientFrom(values).getBlock(id, { signal: interruptSignal() });
      const header = block.header ?? {};
      const txs = Object.entries((block.txs ?? {}) as Record<string, TxView>);
      const failed = (block.failed ?? {}) as Record<string, string>;
      if (values.json) {
        printJson(blockJson(block));
        return 0;
      }
      console.log(`hash     ${block.hash}`);
      console.log(`height   ${header.height}`);
      console.log(`parent   ${header.parent}`);
      console.log(`time     ${block.time} (${new Date(Number(block.time)).toISOString()})`);
      console.log(`txs      ${txs.length}${Object.keys(failed).length ? ` (${Object.keys(failed).length} failed)` : ''}`);
      if (txs.length === 0) return 0;
      const rows = txs.map(([txid, tx]) => {
        const moved = (tx.payload ?? [])
          .filter((p) => p.purpose === 'transfer')
          .map((p) => `${p.amount} ${p.cur}`)
          .join(', ');
        return [txid, tx.kind ?? '?', text(tx.from), tx.kind === 'register' ? text(tx.address) : text(tx.to), moved, failed[txid] ? `failed: ${failed[txid]}` : 'ok'];
      });
      const head = ['txid', 'kind', 'from', 'to', 'amount', 'result'];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const row of [head, ...rows])
        console.log(
          row
            .map((cell, i) => cell.padEnd(widths[i]))
            .join('  ')
            .trimEnd(),
        );
      return 0;
    },
    argv,
  );
}
