// The test-control endpoints under /api/dev (off with --no-dev-api): snapshot, revert, rollback,
// time, setBalance, setSeq, createWallet and faults. Each takes a JSON body and answers
// `{"result":"ok", …, "ok":true}`; the work itself is in dev-control.ts.

import { bytesToHex } from '../../bytes.js';
import { addressToText, parseAddress } from '../../codec/address.js';
import { ValidationError } from '../../errors.js';
import type { ChainReset } from '../ledger/chain.js';
import type { DevControl } from './dev-control.js';
import { CURRENCY, disabled, jsonBody, wholeAmount } from './dev-routes.js';
import { parseFaultRule, type InstalledFault } from './faults.js';
import type { Route } from '../http/server.js';
import type { SnapshotInfo } from '../store/journal-store.js';
import { toJson, type JsonValue } from '../base/json.js';
import { walletInfo } from '../api/views.js';

const reply = (body: { [key: string]: JsonValue }) => ({ json: toJson({ result: 'ok', ...body, ok: true }) });

const snapshotView = (s: SnapshotInfo): { [key: string]: JsonValue } => ({ id: s.id, ...(s.name ? { name: s.name } : {}), height: s.height, createdAt: s.createdAt });
const resetView = (r: ChainReset): { [key: string]: JsonValue } => ({ ...r });
const faultView = (f: InstalledFault): { [key: string]: JsonValue } => ({ ...f });

function text(body: Record<string, unknown>, field: string, example: string): string {
  const value = body[field];
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new ValidationError('BAD_REQUEST_PARAM', `Missing "${field}"`, { field, details: `expected ${example}` });
}

function optionalInteger(body: Record<string, unknown>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, { field, details: `expected an integer, got ${JSON.stringify(value)}` });
  return value;
}

export function createDevControlRoutes(control: DevControl): Route[] {
  const on = control.chain.config.devApi;
  const post = (name: string, handler: (body: Record<string, unknown>) => Promise<{ [key: string]: JsonValue }> | { [key: string]: JsonValue }): Route => ({
    method: 'POST',
    prefix: ['dev', name],
    params: 0,
    handler: async (ctx) => {
      if (!on) disabled(control.chain.config);
      return reply(await handler(jsonBody(ctx)));
    },
  });
  const get = (name: string, handler: () => { [key: string]: JsonValue }): Route => ({
    method: 'GET',
    prefix: ['dev', name],
    params: 0,
    handler: () => {
      if (!on) disabled(control.chain.config);
      return reply(handler());
    },
  });
  return [
    get('snapshot', () => ({ snapshots: control.snapshots().map(snapshotView) })),
    post('snapshot', async (body) => {
      if (body.delete !== undefined) return { deleted: snapshotView(await control.deleteSnapshot(text(body, 'delete', 'a snapshot id or name'))) };
      if (body.name !== undefined && typeof body.name !== 'string') throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "name"', { field: 'name', details: 'expected a string' });
      return snapshotView(await control.snapshot(body.name as string | undefined));
    }),
    post('revert', async (body) => {
      const reset = await control.revert(text(body, 'id', '{"id": "1"} or {"id": "<name>"}'));
      return { ...resetView(reset), dropped: reset.dropped };
    }),
    post('rollback', async (body) => {
      const height = optionalInteger(body, 'height');
      if (height === undefined) throw new ValidationError('BAD_REQUEST_PARAM', 'Missing "height"', { field: 'height', details: 'expected {"height": N}' });
      const reset = await control.rollback(height);
      return { ...resetView(reset), droppedTxs: reset.droppedTxs };
    }),
    get('time', () => ({ now: control.chain.now(), offsetMs: control.chain.clockOffsetMs })),
    post('time', async (body) => resetView(await control.setTime({ offsetMs: optionalInteger(body, 'offsetMs'), setMs: optionalInteger(body, 'setMs') }))),
    post('setBalance', async (body) => {
      const address = parseAddress(text(body, 'address', '{"address": "AA…", "currency": "SK", "amount": "1000"}'));
      const currency = body.currency ?? 'SK';
      if (typeof currency !== 'string' || !CURRENCY.test(currency))
        throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid currency', { field: 'currency', details: `expected a currency name of printable ASCII, got ${JSON.stringify(currency)}` });
      const wallet = await control.setBalance(address, currency, wholeAmount(body.amount));
      return { address: addressToText(address), info: walletInfo(wallet, null) };
    }),
    post('setSeq', async (body) => {
      const address = parseAddress(text(body, 'address', '{"address": "AA…", "seq": 5}'));
      const seq = body.seq;
      if (!((typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0) || (typeof seq === 'string' && /^\d{1,20}$/.test(seq)))) {
        throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "seq"', { field: 'seq', details: `expected a whole number (a string above 2^53), got ${JSON.stringify(seq)}` });
      }
      const wallet = await control.setSeq(address, BigInt(seq));
      return { address: addressToText(address), info: walletInfo(wallet, null) };
    }),
    post('createWallet', async (body) => {
      const publicKey = body.publicKey ?? body.public_key;
      if (publicKey !== undefined && typeof publicKey !== 'string') throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "publicKey"', { field: 'publicKey', details: 'expected hex' });
      const address = body.address === undefined ? undefined : parseAddress(text(body, 'address', 'an address'));
      const made = await control.createWallet({ publicKey: publicKey as string | undefined, address });
      return { address: addressToText(made.address), hex: bytesToHex(made.address, true), created: made.created };
    }),
    get('faults', () => ({ faults: control.faults.list().map(faultView) })),
    post('faults', (body): { [key: string]: JsonValue } => {
      if (body.clear !== undefined) {
        const ids = body.clear === true ? undefined : Array.isArray(body.clear) && body.clear.every((id) => Number.isSafeInteger(id)) ? (body.clear as number[]) : null;
        if (ids === null) throw new ValidationError('BAD_REQUEST_PARAM', 'Invalid "clear"', { field: 'clear', details: 'expected true (all rules) or a list of rule ids' });
        return { cleared: control.faults.clear(ids), faults: control.faults.list().map(faultView) };
      }
      const rules = Array.isArray(body.rules) ? body.rules.map(parseFaultRule) : [parseFaultRule(body)];
      // Every rule is parsed before any is installed, and all fit or none goes in.
      return { added: control.faults.addAll(rules).map(faultView), faults: control.faults.list().map(faultView) };
    }),
  ];
}
