// Transaction body shapes: what decodeBody returns and what the body builders take. A
// decoded body can be passed back to its builder (the builders ignore kind, kindNumber and raw).

import type { KindName, PurposeName } from './constants.js';
import type { MsgMapNode, MsgNode, MsgValue } from './msgpack-types.js';

/**
 * A payload item `[purpose, currency, amount]` as decoded, in the shape the builders take:
 * `purpose` is the name when tx_const.json has one ('transfer', 'srcfee'), else the number,
 * and `purposeNumber` is always the number (as a body's `kind` and `kindNumber`).
 */
export interface PayloadItem {
  purpose: PurposeName | number;
  purposeNumber: number;
  /** @deprecated the same as `purpose` when the purpose is named; kept for callers of 0.1. */
  purposeName?: PurposeName;
  currency: string;
  amount: bigint;
}

/** A payload item for the builders: purpose by name or number, amount a non-negative integer. */
export interface PayloadItemInput {
  purpose: PurposeName | number;
  /** Ignored when it agrees with `purpose` (a decoded item passes back as it is); an ArgumentError when it does not. */
  purposeNumber?: number;
  /** Ignored when it agrees with `purpose`; an ArgumentError when it does not. */
  purposeName?: string;
  currency: string;
  amount: bigint | number;
}

/** A smart-contract call, body key `c` = [method, args]. */
export interface BodyCall {
  method: string;
  args: MsgValue[];
}

export interface BodyCallInput {
  method: string;
  args: readonly MsgValue[];
}

/** Body key `e`: free-form data, string keys. */
export type BodyExtra = Record<string, MsgValue>;
export type BodyExtraInput = { readonly [key: string]: MsgValue };

interface BodyBase {
  /** The whole decoded body map, wire formats and offsets included, for anything not mapped below. */
  raw: MsgMapNode;
}

export interface GenericBody extends BodyBase {
  kind: 'generic';
  kindNumber: 16;
  from: Uint8Array;
  to: Uint8Array;
  seq: bigint;
  /** Milliseconds since the UNIX epoch. */
  timestamp: number;
  payload: PayloadItem[];
  call?: BodyCall;
  extra?: BodyExtra;
}

/** notify (23): a generic body without `to`. */
export interface NotifyBody extends BodyBase {
  kind: 'notify';
  kindNumber: 23;
  from: Uint8Array;
  seq: bigint;
  timestamp: number;
  payload: PayloadItem[];
  call?: BodyCall;
  extra?: BodyExtra;
}

export interface RegisterBody extends BodyBase {
  kind: 'register';
  kindNumber: 17;
  timestamp: number;
  /** `h`: SHA-256 of the sorted public keys (R1). */
  keysHash: Uint8Array;
  /**
   * The proof-of-work nonce from key `nonce` (the spec's name) or, failing that, `pow` (the
   * reference node's miner): a bigint when it is an integer, the raw node otherwise, absent
   * when the body has neither key.
   */
  nonce?: bigint | MsgNode;
  extra?: BodyExtra;
}

export interface ChkeyBody extends BodyBase {
  kind: 'chkey';
  kindNumber: 24;
  from: Uint8Array;
  seq: bigint;
  timestamp: number;
  /** `y`: the new keys; the first becomes the wallet's key. */
  publicKeys: Uint8Array[];
}

/**
 * deploy (18), as the official SDK writes it (decodeDeployBody reads it): the contract in `e` (`code`, `vm`, and
 * `deploy: "inplace"`), the constructor's ABI-encoded arguments in `c` = ["0x0", [bytes]]
 * (the SDK writes `c: []` when there are none).
 */
export interface DeployBody extends BodyBase {
  kind: 'deploy';
  kindNumber: 18;
  from: Uint8Array;
  seq: bigint;
  timestamp: number;
  payload: PayloadItem[];
  /** The creation code, `e.code`. */
  code: Uint8Array;
  /** `e.vm`, "evm" for Solidity contracts. */
  vm: string;
  /** The constructor's arguments, when `c` carries them. */
  args?: Uint8Array;
  extra: BodyExtra;
}

export type OtherKindName = Exclude<KindName, 'generic' | 'register' | 'notify' | 'chkey'>;

/** Kinds whose layout the spec does not give (deploy, patch, block, tstore, lstore): the top-level fields as values (a deploy's layout: decodeDeployBody). */
export interface OtherBody extends BodyBase {
  kind: OtherKindName;
  kindNumber: number;
  fields: Record<string, MsgValue>;
}

export type Body = GenericBody | NotifyBody | RegisterBody | ChkeyBody | OtherBody;

export interface GenericBodyInput {
  /** 8 address bytes or address text. */
  from: Uint8Array | string;
  to: Uint8Array | string;
  seq: bigint | number;
  /** Milliseconds since the UNIX epoch. */
  timestamp: number | bigint;
  payload: readonly PayloadItemInput[];
  call?: BodyCallInput;
  extra?: BodyExtraInput;
}

export type NotifyBodyInput = Omit<GenericBodyInput, 'to'>;

export interface RegisterBodyInput {
  /** The wallet's public keys; `h` becomes their keys hash (R1). Give this or keysHash. */
  publicKeys?: readonly Uint8Array[];
  /** A ready `h` (32 bytes). */
  keysHash?: Uint8Array;
  timestamp: number | bigint;
  /** Default 0n; always written as 8 bytes so a miner can patch it in place. */
  nonce?: bigint | number;
  extra?: BodyExtraInput;
}

export interface ChkeyBodyInput {
  from: Uint8Array | string;
  seq: bigint | number;
  timestamp: number | bigint;
  publicKeys: readonly Uint8Array[];
}
