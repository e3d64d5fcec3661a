// The chain id an Ethereum transaction was signed for, read from its RLP before it is decoded:
// @ethereumjs/tx refuses a transaction of another chain with a message that names neither chain
// (for a typed one, the source text of a function), so the node says it first, in its own words.
// Typed transactions (EIP-2930, EIP-1559) carry the id as their first field; a legacy one in its
// v (EIP-155: v = 35 + 2·id, or 27/28 for none). Anything unreadable is left to the decoder.

/** An RLP item at `at`: where its content starts and ends, and whether it is a list. */
function item(bytes: Uint8Array, at: number): { start: number; end: number; list: boolean } | undefined {
  const b = bytes[at];
  if (b === undefined) return undefined;
  if (b < 0x80) return { start: at, end: at + 1, list: false };
  const list = b >= 0xc0;
  const short = list ? 0xc0 : 0x80;
  const long = list ? 0xf7 : 0xb7;
  if (b <= long) return { start: at + 1, end: at + 1 + b - short, list };
  const lengthBytes = b - long;
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) {
    const next = bytes[at + i];
    if (next === undefined) return undefined;
    length = length * 256 + next;
  }
  return { start: at + 1 + lengthBytes, end: at + 1 + lengthBytes + length, list };
}

function unsigned(bytes: Uint8Array, start: number, end: number): bigint {
  let value = 0n;
  for (let i = start; i < end; i++) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

/** The chain id `raw` was signed for; null when it names none (legacy without EIP-155); undefined when unreadable. */
export function signedChainId(raw: Uint8Array): bigint | null | undefined {
  const typed = raw[0] === 0x01 || raw[0] === 0x02;
  const outer = item(raw, typed ? 1 : 0);
  if (!outer?.list || outer.end > raw.length) return undefined;
  // Typed: the first field; legacy: v, the seventh.
  const wanted = typed ? 0 : 6;
  let at = outer.start;
  for (let i = 0; i < wanted; i++) {
    const field = item(raw, at);
    if (!field || field.end > outer.end) return undefined;
    at = field.end;
  }
  const field = item(raw, at);
  if (!field || field.list || field.end > outer.end) return undefined;
  const value = unsigned(raw, field.start, field.end);
  if (typed) return value;
  return value >= 35n ? (value - 35n) / 2n : null;
}
