// The checks of single setting values (integers, amounts, currencies, fee rates, balances,
// genesis wallets, host and origin lists, log levels): each returns the value as the node uses
// it or throws CONFIG_INVALID naming the flag or config key. config.ts applies them.

import { ValidationError } from '../../errors.js';
import { LOG_LEVELS, type LogLevel } from '../base/log.js';
import { allowHostEntry } from '../http/host-policy.js';
import { allowOriginEntry } from '../http/origin-policy.js';
import type { Setting } from './settings.js';

export interface FeeRateConfig {
  base: bigint;
  baseextra: bigint;
  kb: bigint;
}

export interface GenesisWalletConfig {
  /** Text (`AA…`) or `0x` hex address. */
  address: string;
  /** Compressed public key, hex; a wallet without one can receive but not send. */
  publicKey?: string;
  amount: Record<string, bigint>;
  seq?: bigint;
  t?: number;
}

export function setAt(target: Record<string, unknown>, key: string, value: unknown): void {
  const [head, tail] = key.split('.');
  if (tail === undefined) target[head] = value;
  else (target[head] as Record<string, unknown>)[tail] = value;
}

export function invalid(field: string, message: string): ValidationError {
  return new ValidationError('CONFIG_INVALID', `${field}: ${message}`, { field });
}

/** A value as a message shows it: JSON, or a bigint's digits (JSON.stringify throws on one). */
function shown(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : String(JSON.stringify(value));
}

export function integer(field: string, value: unknown, min: number, max: number): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw invalid(field, `expected an integer from ${min} to ${max}, got ${shown(value)}`);
  }
  return n;
}

export function amount(field: string, value: unknown): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return BigInt(value.trim());
  throw invalid(field, `expected a non-negative integer (a string for values above 2^53), got ${shown(value)}`);
}

export function text(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(field, `expected a non-empty string, got ${shown(value)}`);
  return value;
}

const CURRENCY_RE = /^[\x21-\x7e]{1,32}$/;

export function currency(field: string, value: string): string {
  if (!CURRENCY_RE.test(value)) throw invalid(field, `expected a currency name of printable ASCII, got ${JSON.stringify(value)}`);
  return value;
}

function feeRate(field: string, value: unknown): FeeRateConfig {
  if (typeof value !== 'object' || value === null) throw invalid(field, 'expected {base, baseextra, kb}');
  const v = value as Record<string, unknown>;
  return { base: amount(`${field}.base`, v.base), baseextra: amount(`${field}.baseextra`, v.baseextra ?? 0), kb: amount(`${field}.kb`, v.kb) };
}

function balances(field: string, value: unknown): Record<string, bigint> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(field, 'expected an object of currency to amount');
  const out: Record<string, bigint> = {};
  for (const [cur, v] of Object.entries(value)) out[currency(`${field}.${cur}`, cur)] = amount(`${field}.${cur}`, v);
  return out;
}

/** Checks one config value of `setting`, named `field` in messages. */
export function configValue(setting: Setting, field: string, value: unknown): unknown {
  switch (setting.type) {
    case 'integer':
      return integer(field, value, setting.min!, setting.max!);
    case 'boolean':
      return Boolean(value);
    case 'text':
      return text(field, value);
    case 'log-level':
      return logLevel(field, value);
    case 'hosts':
      return list(field, value).map((v, i) => allowHostEntry(v, `${field}[${i}]`));
    case 'origins':
      return list(field, value).map((v, i) => allowOriginEntry(v, `${field}[${i}]`));
    case 'fees':
      if (value === null) return {};
      if (typeof value !== 'object' || Array.isArray(value)) throw invalid(field, 'expected an object of currency to {base, baseextra, kb}');
      return Object.fromEntries(Object.entries(value).map(([cur, v]) => [currency(`${field}.${cur}`, cur), feeRate(`${field}.${cur}`, v)]));
    case 'balances':
      return balances(field, value);
    case 'wallets':
      return wallets(field, value);
    case 'alloc-block':
      throw new Error('allocBlock is read by applyConfigObject');
  }
}

function wallets(field: string, value: unknown): GenesisWalletConfig[] {
  if (!Array.isArray(value)) throw invalid(field, 'expected an array');
  return value.map((w, i) => {
    const f = `${field}[${i}]`;
    if (typeof w !== 'object' || w === null) throw invalid(f, 'expected {address, publicKey?, amount}');
    const r = w as Record<string, unknown>;
    return {
      address: text(`${f}.address`, r.address),
      publicKey: r.publicKey === undefined ? undefined : text(`${f}.publicKey`, r.publicKey),
      amount: r.amount === undefined ? {} : balances(`${f}.amount`, r.amount),
      seq: r.seq === undefined ? undefined : amount(`${f}.seq`, r.seq),
      t: r.t === undefined ? undefined : integer(`${f}.t`, r.t, 0, Number.MAX_SAFE_INTEGER),
    };
  });
}

export function list(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(field, 'expected an array of strings');
  return value as string[];
}

export function logLevel(field: string, value: unknown): LogLevel {
  if (!LOG_LEVELS.includes(value as LogLevel)) throw invalid(field, `expected one of ${LOG_LEVELS.join(', ')}, got ${shown(value)}`);
  return value as LogLevel;
}
