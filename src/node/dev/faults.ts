// Injected faults (dev API): rules that make chosen API requests fail the way a real network and
// a real node fail, so a wallet can prove that it retries, times out and reports errors as it
// should. A rule matches a path (`tx/new`, `tx/status`, `address`, `settings`, or any path with
// `*` for one segment; a rule also matches the paths below it) and optionally a method, and
// then answers with an error status and code, delays the request, drops the connection, or (on
// tx/new) accepts the transaction but keeps it pending forever. Each rule fires `count` times
// (default: always) with `probability` (default 1) drawn from its own seeded generator, so a
// run is reproducible. The development endpoints themselves are never faulted.

import type http from 'node:http';
import { ERROR_CODES, ValidationError, type ErrorCode } from '../../errors.js';
import { API_ERRORS } from '../http/api-errors.js';
import { toJson } from '../base/json.js';
import { markHeld } from '../http/hold-mark.js';
import type { FaultAction, FaultRule, InstalledFault } from '../../dev-wire.js';

export type { FaultAction, FaultRule, InstalledFault } from '../../dev-wire.js';

const MAX_RULES = 100;
const MAX_DELAY_MS = 600_000;
const ACTIONS = new Set<FaultAction>(['error', 'delay', 'drop', 'hold']);
const PATH = /^[\w.*~-]+(\/[\w.*~-]+)*$/;

/** mulberry32: a small, well-mixed 32-bit generator; enough to draw reproducible coin flips. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bad(field: string, details: string): ValidationError {
  return new ValidationError('BAD_REQUEST_PARAM', `Invalid fault rule "${field}"`, { field, details });
}

function integer(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw bad(field, `expected an integer ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** Checks a rule as the dev API receives it (JSON). */
export function parseFaultRule(input: unknown): FaultRule {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw bad('rule', 'expected an object such as {"path":"tx/new","action":"error","status":503}');
  const r = input as Record<string, unknown>;
  const path =
    typeof r.path === 'string'
      ? r.path
          .replace(/^\/+/, '')
          .replace(/^api\//, '')
          .replace(/\/+$/, '')
      : undefined;
  if (!path || !PATH.test(path)) throw bad('path', `expected a path such as "tx/new" or "address/*/seq", got ${JSON.stringify(r.path)}`);
  if (path === 'dev' || path.startsWith('dev/')) throw bad('path', 'the development endpoints cannot be faulted (they clear the faults)');
  if (r.method !== undefined && r.method !== 'GET' && r.method !== 'POST') throw bad('method', `expected "GET" or "POST", got ${JSON.stringify(r.method)}`);
  if (typeof r.action !== 'string' || !ACTIONS.has(r.action as FaultAction)) throw bad('action', `expected one of ${[...ACTIONS].join(', ')}, got ${JSON.stringify(r.action)}`);
  const action = r.action as FaultAction;
  if (action === 'hold' && !/^(tx\/new|\*\/new|tx\/\*)$/.test(path)) throw bad('action', '"hold" keeps a submitted transaction pending: it applies to tx/new only');
  const rule: FaultRule = { path, action };
  if (r.method !== undefined) rule.method = r.method as 'GET' | 'POST';
  if (action === 'error') {
    rule.status = integer(r.status, 'status', 400, 599) ?? 503;
    const code = r.code ?? 'NODE_INTERNAL';
    if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(code)) throw bad('code', `expected an error code such as "MEMPOOL_FULL", got ${JSON.stringify(r.code)}`);
    rule.code = code;
    if (r.message !== undefined) {
      if (typeof r.message !== 'string' || r.message.length > 200) throw bad('message', 'expected a string of up to 200 characters');
      rule.message = r.message;
    }
  }
  if (action === 'delay') {
    rule.delayMs = integer(r.delayMs, 'delayMs', 1, MAX_DELAY_MS);
    if (rule.delayMs === undefined) throw bad('delayMs', 'a delay rule needs "delayMs"');
  }
  const count = integer(r.count, 'count', 1, 1_000_000_000);
  if (count !== undefined) rule.count = count;
  if (r.probability !== undefined) {
    if (typeof r.probability !== 'number' || !(r.probability >= 0 && r.probability <= 1)) throw bad('probability', `expected a number from 0 to 1, got ${JSON.stringify(r.probability)}`);
    rule.probability = r.probability;
  }
  const seed = integer(r.seed, 'seed', 0, 2 ** 32 - 1);
  if (seed !== undefined) rule.seed = seed;
  return rule;
}

function pathMatches(rule: string[], segments: string[]): boolean {
  if (segments.length < rule.length) return false;
  for (let i = 0; i < rule.length; i++) if (rule[i] !== '*' && rule[i] !== segments[i]) return false;
  return true;
}

interface ActiveRule {
  rule: InstalledFault;
  segments: string[];
  random: () => number;
}

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private readonly waiting = new Map<NodeJS.Timeout, http.IncomingMessage>();

  add(rule: FaultRule): InstalledFault {
    return this.addAll([rule])[0];
  }

  /** Installs every rule, or none of them when they would not all fit. */
  addAll(rules: readonly FaultRule[]): InstalledFault[] {
    if (this.rules.length + rules.length > MAX_RULES) {
      throw bad('rule', `a node holds at most ${MAX_RULES} rules: ${this.rules.length} installed, ${rules.length} given, none added; clear some first`);
    }
    return rules.map((rule) => {
      const installed: InstalledFault = { ...rule, id: this.nextId++, fired: 0 };
      this.rules.push({ rule: installed, segments: rule.path.split('/'), random: generator(rule.seed ?? 1) });
      return installed;
    });
  }

  list(): InstalledFault[] {
    return this.rules.map((r) => ({ ...r.rule }));
  }

  /** Removes the rules with these ids, or all of them; returns how many went. */
  clear(ids?: number[]): number {
    const before = this.rules.length;
    this.rules = ids ? this.rules.filter((r) => !ids.includes(r.rule.id)) : [];
    return before - this.rules.length;
  }

  /** The first rule that fires on this request, counted as fired. */
  private pick(method: string, segments: string[]): InstalledFault | undefined {
    if (segments[0] === 'dev') return undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== undefined && rule.method !== method) continue;
      if (!pathMatches(active.segments, segments)) continue;
      if (rule.count !== undefined && rule.fired >= rule.count) continue;
      if (rule.probability !== undefined && active.random() >= rule.probability) continue;
      rule.fired++;
      return rule;
    }
    return undefined;
  }

  /**
   * The server's hook in front of routing: either passes the request on (`next`), answers it
   * (`reply`, through the server's own headers), drops its connection or passes it on later.
   */
  intercept(req: http.IncomingMessage, next: () => void, reply: (status: number, json: string) => void): void {
    if (this.rules.length === 0) return next();
    const path = (req.url ?? '/').split('?')[0];
    const segments = path.split('/').filter((s) => s !== '');
    if (segments[0] === 'api') segments.shift();
    if (segments.length > 0) segments[segments.length - 1] = segments[segments.length - 1].replace(/\.(json|bin)$/, '');
    const rule = this.pick(req.method ?? 'GET', segments);
    if (!rule) return next();
    switch (rule.action) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'error':
        return reply(rule.status ?? 503, errorBody(rule));
      case 'hold':
        markHeld(req.headers);
        return next();
      case 'delay': {
        const timer = setTimeout(() => {
          this.waiting.delete(timer);
          next();
        }, rule.delayMs);
        this.waiting.set(timer, req);
        req.socket.once('close', () => {
          if (this.waiting.delete(timer)) clearTimeout(timer);
        });
        return;
      }
    }
  }

  /** Ends the delays in flight (the node is closing). */
  close(): void {
    for (const [timer, req] of this.waiting) {
      clearTimeout(timer);
      req.socket.destroy();
    }
    this.waiting.clear();
  }
}

function errorBody(rule: InstalledFault): string {
  const code = rule.code ?? 'NODE_INTERNAL';
  const known = Object.hasOwn(ERROR_CODES, code);
  return toJson({
    ok: false,
    result: rule.status === 404 ? 'not_found' : 'error',
    code: (known ? API_ERRORS[code as ErrorCode]?.code : undefined) ?? 10099,
    msg: rule.message ?? (known ? ERROR_CODES[code as ErrorCode] : code),
    error: code,
    details: `injected by fault rule ${rule.id}`,
  });
}
