// A revert's data as people read it: Error(string) gives its message, Panic(uint256) its code
// (0x11: arithmetic overflow, 0x12: division by zero, …); anything else (a custom error, or no
// data) stays hex, as the reference node's status shows bytes that are not text.

import { bytesToHex } from '../../bytes.js';

const ERROR_STRING = '08c379a0';
const PANIC = '4e487b71';
const utf8 = new TextDecoder('utf-8', { fatal: true });

function word(data: Uint8Array, at: number): bigint | undefined {
  if (data.length < at + 32) return undefined;
  return BigInt('0x' + bytesToHex(data.subarray(at, at + 32)));
}

export interface RevertReason {
  /** The text to show: the message, `Panic(0x11)`, or 0x + hex of the data ("" for none). */
  text: string;
  signature?: 'Error(string)' | 'Panic(uint256)';
}

export function revertReason(data: Uint8Array): RevertReason {
  if (data.length === 0) return { text: '' };
  const selector = bytesToHex(data.subarray(0, 4));
  const body = data.subarray(4);
  if (selector === ERROR_STRING) {
    const offset = word(body, 0);
    const length = offset === undefined || offset > BigInt(body.length) ? undefined : word(body, Number(offset));
    const start = Number(offset ?? 0n) + 32;
    if (length !== undefined && BigInt(start) + length <= BigInt(body.length)) {
      try {
        return { text: utf8.decode(body.subarray(start, start + Number(length))), signature: 'Error(string)' };
      } catch {
        // not UTF-8: shown as hex below
      }
    }
  }
  if (selector === PANIC && body.length === 32) return { text: `Panic(0x${word(body, 0)!.toString(16)})`, signature: 'Panic(uint256)' };
  return { text: '0x' + bytesToHex(data) };
}
