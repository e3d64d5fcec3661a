// POST /api/execute/call: a contract view, in the reference node's request and answer shapes
// (tpnode_httpapi.erl, tpnode_evmrun.erl). The request names the contract (`to`, 0x + 40 or
// 16 hex digits, or address text), the function (`call`) and its arguments (`args`):
//   call "0x0", args ["0x<calldata>"]         the calldata as is (what the official SDK sends)
//   call "name(type,…)", args [v, …]          the selector of that signature, static arguments
//   call "0x<8 hex digits>", args [v, …]      that selector, static arguments
// Static arguments are integers (numbers, decimal or 0x strings), addresses, booleans and
// bytesN, one 32-byte word each; anything dynamic goes ABI-encoded through "0x0".
// Optional: `from` (default 0x8000000000000000, as the reference), `gas` (default and most:
// the node's view gas cap, limits.viewGasCap; a larger one is lowered to it, as geth does),
// `value`. The answer: `result` ("return", "revert" or "error"), `bin` (0x + hex of the return
// or revert data), `gas_used`, `log` (the events the call would emit), and for a revert its
// `signature` and `decode` when it is Error(string) or Panic(uint256).

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { ValidationError } from '../../errors.js';
import { parseEvmAddress } from './address.js';
import type { EvmLib } from './load.js';
import { revertReason } from './revert.js';
import type { EvmRun } from './runner.js';

export interface ExecuteCall {
  caller: string;
  to: string;
  data: Uint8Array;
  value: bigint;
  gasLimit: bigint;
}

const DEFAULT_FROM = '0x8000000000000000';
/** No gas given: as much as the view gas cap allows (the chain lowers it to the cap). */
const DEFAULT_GAS = (1n << 64n) - 1n;
const MAX_GAS = (1n << 64n) - 1n;

function bad(field: string, details: string): ValidationError {
  return new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, { field, details });
}

function integer(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^(?:0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)) return BigInt(value);
  if (typeof value === 'boolean') return value ? 1n : 0n;
  throw bad(field, `expected an integer (number, decimal or 0x string), got ${JSON.stringify(value)?.slice(0, 80)}`);
}

function wordOf(value: bigint, field: string): Uint8Array {
  if (value < 0n) value += 1n << 256n;
  if (value < 0n || value >= 1n << 256n) throw bad(field, 'does not fit in 256 bits');
  return hexToBytes(value.toString(16).padStart(64, '0'));
}

/**
 * One static argument as its 32-byte word; `type` from the signature, or undefined: then
 * address text is an address and anything else an integer (a 0x address is the same number).
 */
function encodeArg(value: unknown, type: string | undefined, field: string): Uint8Array {
  if (type === undefined) type = typeof value === 'string' && !value.startsWith('0x') && !/^[0-9]+$/.test(value) ? 'address' : 'uint256';
  if (type === 'address') return wordOf(BigInt('0x' + parseEvmAddress(value, field)), field);
  if (/^bytes([1-9]|[12][0-9]|3[0-2])$/.test(type)) {
    const size = Number(type.slice(5));
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value) || value.length - 2 !== 2 * size) throw bad(field, `expected 0x and ${2 * size} hex digits for ${type}`);
    const out = new Uint8Array(32);
    out.set(hexToBytes(value));
    return out;
  }
  if (type === 'bool' || /^u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)$/.test(type)) {
    return wordOf(integer(value, field), field);
  }
  throw bad(field, `type ${type} is not static: ABI-encode the call and send it as call "0x0"`);
}

/** The selector and parameter types of "name(type,…)" (a "returns (…)" part is ignored). */
function parseSignature(signature: string): { name: string; types: string[] } {
  const m = /^\s*([A-Za-z_$][\w$]*)\s*\(([^()]*)\)/.exec(signature);
  if (!m) throw bad('call', `expected "0x0", a 4-byte selector or "name(type,…)", got ${JSON.stringify(signature).slice(0, 80)}`);
  const types =
    m[2].trim() === ''
      ? []
      : m[2].split(',').map((t) =>
          t
            .trim()
            .split(/\s+/)[0]
            .replace(/^uint$/, 'uint256')
            .replace(/^int$/, 'int256'),
        );
  return { name: m[1], types };
}

/**
 * Calldata from the reference's `call` and `args`: "0x0" and the calldata itself, a 4-byte
 * selector or "name(type,…)" with static arguments (see above).
 */
export function calldata(call: string, args: readonly unknown[], keccak256: (data: Uint8Array) => Uint8Array): Uint8Array {
  if (call === '0x0') {
    if (args.length !== 1 || typeof args[0] !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(args[0])) throw bad('args', 'call "0x0" takes one argument: the calldata, 0x and hex digits');
    return hexToBytes(args[0]);
  }
  let selector: Uint8Array;
  let types: (string | undefined)[];
  if (/^0x[0-9a-fA-F]{8}$/.test(call)) {
    selector = hexToBytes(call);
    types = args.map(() => undefined);
  } else {
    const sig = parseSignature(call);
    if (sig.types.length !== args.length) throw bad('args', `${sig.name} takes ${sig.types.length} arguments, got ${args.length}`);
    selector = keccak256(new TextEncoder().encode(`${sig.name}(${sig.types.join(',')})`)).slice(0, 4);
    types = sig.types;
  }
  const data = new Uint8Array(4 + 32 * args.length);
  data.set(selector);
  args.forEach((a, i) => data.set(encodeArg(a, types[i], `args[${i}]`), 4 + 32 * i));
  return data;
}

/** Reads and checks the request; the calldata is built here (hashing the signature). */
export function parseExecuteCall(body: unknown, lib: Pick<EvmLib, 'keccak256'>): ExecuteCall {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('body', 'expected a JSON object with "call" and "to"');
  const b = body as Record<string, unknown>;
  if (typeof b.call !== 'string') throw bad('call', 'expected a string');
  if (b.to === undefined) throw bad('to', 'missing');
  const to = parseEvmAddress(b.to, 'to');
  const caller = parseEvmAddress(b.from ?? DEFAULT_FROM, 'from');
  const args = b.args ?? [];
  if (!Array.isArray(args)) throw bad('args', 'expected an array');
  const gasLimit = b.gas === undefined ? DEFAULT_GAS : integer(b.gas, 'gas');
  if (gasLimit <= 0n || gasLimit > MAX_GAS) throw bad('gas', `expected 1 to ${MAX_GAS}`);
  const value = b.value === undefined ? 0n : integer(b.value, 'value');
  const data = calldata(b.call, args, lib.keccak256);
  return { caller, to, data, value, gasLimit };
}

/** The reference's answer for a run (hex as it prints binaries: 0x and lowercase). */
export function executeCallAnswer(run: EvmRun, caller: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    result: run.end,
    ok: true,
    bin: '0x' + bytesToHex(run.returnData),
    gas_used: Number(run.gasUsed),
    log: run.logs.map((l) => ['evm', '0x' + l.address, '0x' + caller, '0x' + bytesToHex(l.data), l.topics.map((t) => '0x' + bytesToHex(t))]),
  };
  if (run.end === 'error') out.error = run.error;
  if (run.end === 'revert') {
    const reason = revertReason(run.returnData);
    if (reason.signature) {
      out.signature = reason.signature;
      out.decode = reason.text;
    }
  }
  return out;
}
