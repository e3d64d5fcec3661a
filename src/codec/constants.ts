// Kinds and purposes (generated from tx_const.json) plus the lookups the codec needs.

import { ArgumentError } from '../errors.js';
import { KIND_NAME, PURPOSE, PURPOSE_NAME, type KindName, type PurposeName } from './constants.generated.js';

export { KIND, KIND_NAME, KIND_VERSION, PURPOSE, PURPOSE_NAME } from './constants.generated.js';
export type { KindName, KindNumber, PurposeName, PurposeNumber } from './constants.generated.js';

const has = (o: object, k: PropertyKey) => Object.prototype.hasOwnProperty.call(o, k);

/** The name of a kind number, or undefined when tx_const.json does not list it. */
export function kindName(kind: number): KindName | undefined {
  return has(KIND_NAME, kind) ? KIND_NAME[kind as keyof typeof KIND_NAME] : undefined;
}

/** The name of a purpose number, or undefined for purposes tx_const.json does not list (they are still valid). */
export function purposeName(purpose: number): PurposeName | undefined {
  return has(PURPOSE_NAME, purpose) ? PURPOSE_NAME[purpose as keyof typeof PURPOSE_NAME] : undefined;
}

/** A purpose given by name or number -> its number. Unknown names are an ArgumentError; any non-negative integer passes. */
export function purposeNumber(purpose: number | PurposeName, label = 'purpose'): number {
  if (typeof purpose === 'string') {
    if (!has(PURPOSE, purpose)) {
      throw new ArgumentError(`"${label}" expected a purpose name (${Object.keys(PURPOSE).join(', ')}) or number, got "${purpose}"`);
    }
    return PURPOSE[purpose];
  }
  if (!Number.isSafeInteger(purpose) || purpose < 0) {
    throw new ArgumentError(`"${label}" expected a non-negative integer or purpose name, got ${String(purpose)}`);
  }
  return purpose;
}
