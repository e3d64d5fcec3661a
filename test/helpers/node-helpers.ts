// Shared by the node tests: start a node on port 0, call it, build signed transactions.
import { bytesToBase64 } from '../../src/bytes.js';
import { genericBody, notifyBody } from '../../src/codec/body-generic.js';
import { chkeyBody } from '../../src/codec/body-chkey.js';
import { registerBody, setRegisterNonce } from '../../src/codec/body-register.js';
import { encodeTx } from '../../src/codec/container.js';
import type { PayloadItemInput } from '../../src/codec/body-types.js';
import { signBsig } from '../../src/crypto/bsig.js';
import { publicKeyOf } from '../../src/crypto/keys.js';
import { powBits } from '../../src/pow/bits.js';
import { defaultConfig, type NodeConfig, type NodeLimits } from '../../src/node/config/config.js';
import { startNode, type LocalNode, type NodeOptions } from '../../src/node/node.js';

export interface TestNode extends LocalNode {
  get(path: string): Promise<{ status: number; body: any; headers: Headers }>;
  post(path: string, body: string | Uint8Array, contentType?: string): Promise<{ status: number; body: any; headers: Headers }>;
  submit(txBase64: string): Promise<{ status: number; body: any }>;
}

/** Node settings for a test; `limits` names only the limits the test changes. */
export type TestConfig = Omit<Partial<NodeConfig>, 'limits'> & { limits?: Partial<NodeLimits> };

export function testConfig(overrides: TestConfig = {}): NodeConfig {
  const base = defaultConfig();
  return { ...base, port: 0, memory: true, instant: true, difficulty: 0, logLevel: 'silent', ...overrides, limits: { ...base.limits, ...overrides.limits } };
}

async function answer(res: Response) {
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

export async function startTestNode(overrides: TestConfig = {}, options: NodeOptions = {}): Promise<TestNode> {
  const node = await startNode(testConfig(overrides), options);
  const get = async (path: string) => answer(await fetch(node.url + path));
  const post = async (path: string, body: string | Uint8Array, contentType = 'application/json') =>
    answer(await fetch(node.url + path, { method: 'POST', body: body as BodyInit, headers: { 'content-type': contentType } }));
  return Object.assign(node, {
    get,
    post,
    submit: (tx: string) => post('/api/tx/new', JSON.stringify({ tx })),
  });
}

export function sign(body: Uint8Array, secretKeys: Uint8Array[], timestamp: number): string {
  const sigs = secretKeys.map((k) => signBsig(body, k, { timestamp }));
  return bytesToBase64(encodeTx({ body, sigs }));
}

export interface TransferInput {
  key: Uint8Array;
  from: Uint8Array;
  to: Uint8Array;
  seq: bigint | number;
  t: number;
  payload: PayloadItemInput[];
  /** The body's extra map (e.g. a `msg`). */
  extra?: Record<string, string>;
}

export function transfer(input: TransferInput): string {
  const body = genericBody({ from: input.from, to: input.to, seq: input.seq, timestamp: input.t, payload: input.payload, extra: input.extra });
  return sign(body, [input.key], input.t);
}

export function notify(input: Omit<TransferInput, 'to'>): string {
  const body = notifyBody({ from: input.from, seq: input.seq, timestamp: input.t, payload: input.payload });
  return sign(body, [input.key], input.t);
}

export function chkey(input: { key: Uint8Array; from: Uint8Array; seq: number; t: number; newKey: Uint8Array }): string {
  const body = chkeyBody({ from: input.from, seq: input.seq, timestamp: input.t, publicKeys: [publicKeyOf(input.newKey)] });
  return sign(body, [input.key], input.t);
}

/** A register transaction mined to `difficulty` bits with a plain nonce loop. */
export function register(key: Uint8Array, t: number, difficulty: number): string {
  return sign(minedRegisterBody(publicKeyOf(key), t, difficulty), [key], t);
}

/** A register body for `publicKey` whose SHA-512 has at least `difficulty` leading zero bits. */
export function minedRegisterBody(publicKey: Uint8Array, t: number, difficulty: number): Uint8Array {
  const body = registerBody({ publicKeys: [publicKey], timestamp: t, nonce: 0n });
  for (let nonce = 0n; powBits(body) < difficulty; nonce++) setRegisterNonce(body, nonce + 1n);
  return body;
}

/** A register transaction whose proof of work is exactly one bit below `difficulty` (the closest miss). */
export function registerBelow(key: Uint8Array, t: number, difficulty: number): string {
  if (difficulty < 1) throw new Error('no proof is below difficulty 0');
  const body = registerBody({ publicKeys: [publicKeyOf(key)], timestamp: t, nonce: 0n });
  for (let nonce = 0n; powBits(body) !== difficulty - 1; nonce++) setRegisterNonce(body, nonce + 1n);
  return sign(body, [key], t);
}

export const fee = (amount: number, currency = 'SK'): PayloadItemInput => ({ purpose: 'srcfee', currency, amount });
export const pay = (amount: number | bigint, currency = 'SK'): PayloadItemInput => ({ purpose: 'transfer', currency, amount });

/** Polls a txid until its status is no longer null. */
export async function waitStatus(node: TestNode, txid: string, timeoutMs = 5000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await node.get(`/api/tx/status/${txid}`);
    if (body.res !== null) return body.res;
    if (Date.now() > deadline) throw new Error(`status of ${txid} still null after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
