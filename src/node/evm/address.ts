// ThePower addresses and 20-byte EVM addresses. A ThePower address (8 bytes) is, to the EVM,
// the same number in 20 bytes: twelve zero bytes, then the 8 (the reference node reads the
// address as an unsigned integer; the SDK's textAddressToEvmAddress prefixes 24 zero digits).
// Any other 20-byte address is an Ethereum account: a key's keccak address, or a contract
// created by an Ethereum transaction. State is keyed by the 40 lowercase hex digits.

import { bytesToHex, hexToBytes } from '../../bytes.js';
import { addressFromText, isAddress } from '../../codec/address.js';
import { ValidationError } from '../../errors.js';

export const EVM_ADDRESS_LENGTH = 20;
const PREFIX = '0'.repeat(24);

/** The EVM form (40 lowercase hex digits, no 0x) of an 8-byte ThePower address. */
export function evmKey(address: Uint8Array): string {
  return PREFIX + bytesToHex(address);
}

/** The 8-byte ThePower address an EVM key stands for, when it is one (else undefined). */
export function powerAddress(key: string): Uint8Array | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const bytes = hexToBytes(key.slice(24));
  return isAddress(bytes) ? bytes : undefined;
}

const HEX40 = /^(?:0x|0X)?[0-9a-fA-F]{40}$/;
const HEX16 = /^(?:0x|0X)[0-9a-fA-F]{16}$/;

/**
 * An address as clients write it to the EVM side: `0x` + 40 hex digits (EVM), `0x` + 16 hex
 * digits or ThePower text (a ThePower wallet). Returns its EVM key; throws BAD_REQUEST_PARAM.
 */
export function parseEvmAddress(input: unknown, field: string): string {
  if (typeof input === 'string') {
    if (HEX40.test(input)) return (input.startsWith('0x') || input.startsWith('0X') ? input.slice(2) : input).toLowerCase();
    if (HEX16.test(input) || !input.startsWith('0x')) {
      try {
        return evmKey(addressFromText(input));
      } catch (cause) {
        throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, { field, details: (cause as Error & { details?: string }).details ?? (cause as Error).message, cause });
      }
    }
  }
  throw new ValidationError('BAD_REQUEST_PARAM', `Invalid "${field}"`, {
    field,
    details: `expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got ${JSON.stringify(input)?.slice(0, 80)}`,
  });
}
