// Submission checks: everything about a transaction that does not depend on the order of
// transactions, so a bad one is refused at POST time with a 4xx and a code instead of becoming
// a failed status later. Size and signature-count limits, container and body decoding,
// supported kinds, chain membership of addresses, the timestamp window, the sender's
// existence and key, signatures (libsecp256k1), the register keys hash and proof of work.

import { createHash } from 'node:crypto';
import { bytesToHex, equalBytes } from '../../bytes.js';
import { addressParts } from '../../codec/address.js';
import { decodeBody } from '../../codec/body-decode.js';
import type { Body, PayloadItem } from '../../codec/body-types.js';
import { decodeTx } from '../../codec/container.js';
import { decodeBsig, type DecodedBsig } from '../../crypto/bsig-tlv.js';
import { keysHash } from '../../codec/keys-hash.js';
import { normalizePublicKey } from '../../crypto/keys.js';
import { CryptoError, TpkitError, ValidationError } from '../../errors.js';
import { powBits } from '../../pow/bits.js';
import type { NodeLimits } from '../config/config.js';
import { decodeDeployBody } from '../../codec/body-deploy-decode.js';
import { MAX_INITCODE_BYTES } from '../evm/eth-tx.js';
import { TIMESTAMP_WINDOW_MS, type NodeTx, type NodeTxBody, type PayloadItem as NodeTxPayloadItem } from './node-tx.js';
import { verifyJob, type VerifyJob, type VerifyOutcome } from './verifier.js';
import type { Wallet } from './wallet.js';

export interface SubmissionContext {
  now: number;
  chain: number;
  difficulty: number;
  limits: NodeLimits;
  /** Committed wallet by lowercase address hex. */
  wallet(addressHex: string): Wallet | undefined;
}

export interface SubmissionOptions {
  /**
   * Re-reading a transaction accepted before a restart: skip the checks whose answer may have
   * changed since (clock window, difficulty, sender key); block time decides those.
   */
  restoring?: boolean;
}

const UNSUPPORTED: Record<string, string> = {
  patch: 'chain settings come from its configuration',
  block: 'it is a single chain and takes no cross-chain blocks',
  lstore: 'it keeps no LStore data',
  tstore: 'it keeps no TStore data',
};

function decodeSignature(bsig: Uint8Array, index: number): DecodedBsig {
  try {
    return decodeBsig(bsig);
  } catch (err) {
    if (err instanceof TpkitError) {
      throw new ValidationError(err.code, `Invalid signature sig[${index}]`, { field: `sig[${index}]`, details: err.details ?? err.message, cause: err });
    }
    throw err;
  }
}

const OUTCOME_DETAILS: Record<Exclude<VerifyOutcome, 'valid'>, string> = {
  SIG_INVALID: 'the signature does not match the body and the public key, or r/s is out of range',
  BSIG_BAD_DER: 'the signature is not strict DER',
  KEY_INVALID: 'the public key is not a secp256k1 point',
};

function signatureError(outcome: Exclude<VerifyOutcome, 'valid'>, index: number): TpkitError {
  return new CryptoError(outcome, `Signature sig[${index}] is not valid`, { field: `sig[${index}]`, details: OUTCOME_DETAILS[outcome] });
}

function compressed(key: Uint8Array): Uint8Array {
  return key.length === 33 ? key : normalizePublicKey(key);
}

function checkOnChain(address: Uint8Array, field: string, chain: number): void {
  const parts = addressParts(address);
  if (parts.kind === 'public' && parts.block !== chain) {
    throw new ValidationError('WRONG_CHAIN', `Address "${field}" is on chain ${parts.block}`, {
      field,
      details: `this node runs chain ${chain} only`,
    });
  }
}

/** Signatures to check, and what their outcomes mean. */
interface SignatureCheck {
  jobs: VerifyJob[];
  /** Signature index of each job, for error messages. */
  indexes: number[];
  complete(outcomes: VerifyOutcome[]): Uint8Array[];
}

const job = (d: DecodedBsig, body: Uint8Array): VerifyJob => ({ signature: d.signature, publicKey: d.publicKey, signedFields: d.signedFields, body });

/** Register: every valid signature's key must be in `h`; the body must meet the difficulty. */
function registerCheck(body: Uint8Array, h: Uint8Array, sigs: DecodedBsig[], ctx: SubmissionContext, options: SubmissionOptions, hasNonce: boolean): SignatureCheck {
  // Proof of work first: one SHA-512, cheaper than any signature.
  if (!options.restoring && ctx.difficulty > 0) {
    const bits = powBits(body);
    if (bits < ctx.difficulty && !hasNonce) {
      // The official SDK registers without mining: say so, and how to serve such a client.
      throw new ValidationError('POW_TOO_LOW', `The register transaction carries no proof of work (no nonce in its body) and this chain asks for ${ctx.difficulty} bits`, {
        field: 'nonce',
        details: 'clients that do not mine (the official SDK and wallet) need a node started with: tpkit node --difficulty 0; or mine the nonce (tpkit register, registerWallet)',
      });
    }
    if (bits < ctx.difficulty) {
      throw new ValidationError('POW_TOO_LOW', 'Register proof of work below the difficulty', {
        field: 'nonce',
        details: `SHA-512 of the body has ${bits} leading zero bits, the chain asks for ${ctx.difficulty}`,
      });
    }
  }
  const indexes = sigs.map((_, i) => i);
  return {
    jobs: sigs.map((d) => job(d, body)),
    indexes,
    complete(outcomes) {
      const valid: Uint8Array[] = [];
      let firstFailure: TpkitError | undefined;
      outcomes.forEach((outcome, i) => {
        if (outcome === 'valid') valid.push(compressed(sigs[i].publicKey));
        else if (outcome === 'KEY_INVALID')
          throw signatureError(outcome, i); // the reference fails the whole tx
        else firstFailure ??= signatureError(outcome, i);
      });
      if (valid.length === 0) throw firstFailure!;
      if (!equalBytes(keysHash(valid), h)) {
        throw new ValidationError('REGISTER_KEYS_MISMATCH', 'Register body "h" does not match its signers', {
          field: 'h',
          details: `h is not SHA-256 of the ${valid.length} key(s) whose signatures verify`,
        });
      }
      return valid;
    },
  };
}

/** Sender transactions: at least one valid signature by the wallet's stored key. */
function senderCheck(from: Uint8Array, body: Uint8Array, sigs: DecodedBsig[], ctx: SubmissionContext, options: SubmissionOptions): SignatureCheck {
  const wallet = ctx.wallet(bytesToHex(from));
  if (!wallet) {
    throw new ValidationError('SENDER_UNKNOWN', 'Unknown sender', { field: 'f', details: `no wallet ${bytesToHex(from, true)} on this chain` });
  }
  const key = wallet.pubkey;
  // Only signatures carrying the wallet's key can count; the others are not even checked.
  const indexes: number[] = [];
  if (key) {
    sigs.forEach((d, i) => {
      const carried = d.publicKey;
      if (carried.length === 33 ? equalBytes(carried, key) : carried.length === 65 && safeEqualKey(carried, key)) indexes.push(i);
    });
  }
  if (indexes.length === 0 && !options.restoring) {
    throw new ValidationError('SENDER_KEY_MISMATCH', 'No signature by the sender key', {
      field: 'sig',
      details: key ? `wallet ${bytesToHex(from, true)} has key ${bytesToHex(key, true)}` : `wallet ${bytesToHex(from, true)} has no key and cannot send`,
    });
  }
  return {
    jobs: indexes.map((i) => job(sigs[i], body)),
    indexes,
    complete(outcomes) {
      if (outcomes.some((o) => o === 'valid')) return [key!];
      if (options.restoring) return []; // the key changed meanwhile: block time reports "unverified"
      const i = outcomes.findIndex((o) => o !== 'valid');
      throw signatureError(outcomes[i] as Exclude<VerifyOutcome, 'valid'>, indexes[i]);
    },
  };
}

function safeEqualKey(uncompressed: Uint8Array, key: Uint8Array): boolean {
  try {
    return equalBytes(normalizePublicKey(uncompressed), key);
  } catch {
    return false;
  }
}

function checkWindow(t: number, ctx: SubmissionContext, options: SubmissionOptions): void {
  if (options.restoring || Math.abs(ctx.now - t) < TIMESTAMP_WINDOW_MS) return;
  throw new ValidationError('TIMESTAMP_OUT_OF_WINDOW', 'Transaction timestamp outside the accepted window', {
    field: 't',
    details: `t = ${t} is ${Math.round((t - ctx.now) / 1000)} s from the node clock ${ctx.now}; the limit is ±3600 s`,
  });
}

/** Seq is a signed 64-bit integer in the reference ledger; a wallet at the top could never send again. */
const MAX_SEQ = (1n << 63n) - 1n;

function checkSeq(seq: bigint): void {
  if (seq <= MAX_SEQ) return;
  throw new ValidationError('BODY_BAD_FIELD', 'Invalid body field "s"', { field: 's', details: `seq ${seq} is 2^63 or more; the largest allowed is ${MAX_SEQ}` });
}

/** The ledger's payload items: purposes by number, as apply.ts compares them. */
const ledgerPayload = (payload: readonly PayloadItem[]): NodeTxPayloadItem[] => payload.map((p) => ({ purpose: p.purposeNumber, currency: p.currency, amount: p.amount }));

function nodeBody(body: Body, sigs: DecodedBsig[], bytes: Uint8Array, ctx: SubmissionContext, options: SubmissionOptions): [NodeTxBody, SignatureCheck] {
  switch (body.kind) {
    case 'register':
      return [{ kind: 'register', t: body.timestamp, keysHash: body.keysHash }, registerCheck(bytes, body.keysHash, sigs, ctx, options, body.nonce !== undefined)];
    case 'generic': {
      checkOnChain(body.from, 'f', ctx.chain);
      checkOnChain(body.to, 'to', ctx.chain);
      checkWindow(body.timestamp, ctx, options);
      checkSeq(body.seq);
      const check = senderCheck(body.from, bytes, sigs, ctx, options);
      const generic: NodeTxBody = { kind: 'generic', from: body.from, to: body.to, seq: body.seq, t: body.timestamp, payload: ledgerPayload(body.payload) };
      // A contract call carries its calldata as c = ["0x0", [data]] (the SDKs' form); any other
      // c is kept for the views and, sent to a contract, fails as bad_call.
      if (body.call) {
        const [data] = body.call.args;
        if (body.call.method === '0x0' && body.call.args.length === 1 && data instanceof Uint8Array) generic.call = data;
        else generic.badCall = true;
      }
      return [generic, check];
    }
    case 'deploy': {
      const deploy = decodeDeployBody(body);
      checkOnChain(deploy.from, 'f', ctx.chain);
      checkWindow(deploy.timestamp, ctx, options);
      checkSeq(deploy.seq);
      const initBytes = deploy.code.length + (deploy.args?.length ?? 0);
      // EIP-3860, as at the Ethereum door: init code with its arguments at most 49,152 bytes.
      if (initBytes > MAX_INITCODE_BYTES)
        throw new ValidationError('BODY_BAD_FIELD', 'Invalid body field "e.code"', {
          field: 'e.code',
          details: `the code and its arguments are ${initBytes} bytes, the limit is ${MAX_INITCODE_BYTES} (EIP-3860)`,
        });
      if (deploy.vm !== 'evm')
        throw new ValidationError('BODY_BAD_FIELD', 'Invalid body field "e.vm"', { field: 'e.vm', details: `this node runs "evm" contracts, got ${JSON.stringify(deploy.vm).slice(0, 40)}` });
      const check = senderCheck(deploy.from, bytes, sigs, ctx, options);
      return [
        { kind: 'deploy', from: deploy.from, seq: deploy.seq, t: deploy.timestamp, payload: ledgerPayload(deploy.payload), code: deploy.code, ...(deploy.args ? { args: deploy.args } : {}) },
        check,
      ];
    }
    case 'notify': {
      checkOnChain(body.from, 'f', ctx.chain);
      checkWindow(body.timestamp, ctx, options);
      checkSeq(body.seq);
      const check = senderCheck(body.from, bytes, sigs, ctx, options);
      return [{ kind: 'notify', from: body.from, seq: body.seq, t: body.timestamp, payload: ledgerPayload(body.payload) }, check];
    }
    case 'chkey': {
      checkOnChain(body.from, 'f', ctx.chain);
      checkWindow(body.timestamp, ctx, options);
      checkSeq(body.seq);
      const keys = body.publicKeys.map((k, i) => {
        try {
          return normalizePublicKey(k, `y[${i}]`);
        } catch (cause) {
          throw new ValidationError('BODY_BAD_FIELD', `Invalid body field "y[${i}]"`, { field: `y[${i}]`, details: 'not a secp256k1 public key', cause });
        }
      });
      const check = senderCheck(body.from, bytes, sigs, ctx, options);
      return [{ kind: 'chkey', from: body.from, seq: body.seq, t: body.timestamp, keys }, check];
    }
    default:
      throw unsupported(body);
  }
}

function unsupported(body: Body): ValidationError {
  return new ValidationError('KIND_UNSUPPORTED', `Transaction kind "${body.kind}" (${body.kindNumber}) is not supported by the local node`, {
    field: 'k',
    details: UNSUPPORTED[body.kind] ?? 'unsupported kind',
  });
}

/** A container that passed every check but its signatures: the jobs, and how to finish. */
export interface PreparedSubmission {
  /** The transaction, without txid and signers yet. */
  tx: NodeTx;
  jobs: VerifyJob[];
  /** Sets `tx.signers` from the outcomes of `jobs`, or throws the error they imply. */
  complete(outcomes: VerifyOutcome[]): NodeTx;
}

/** Everything but the signature arithmetic, which the caller may run elsewhere. Throws a TpkitError naming the problem. */
export function prepareSubmission(raw: Uint8Array, ctx: SubmissionContext, options: SubmissionOptions = {}): PreparedSubmission {
  if (raw.length > ctx.limits.maxTxBytes) {
    throw new ValidationError('TX_TOO_LARGE', 'Transaction too large', { details: `limit ${ctx.limits.maxTxBytes} bytes, got ${raw.length}` });
  }
  const container = decodeTx(raw);
  if (container.sigs.length === 0) throw new ValidationError('SIG_MISSING', 'Transaction has no signature', { field: 'sig' });
  if (container.sigs.length > ctx.limits.maxSignatures) {
    throw new ValidationError('TOO_MANY_SIGNATURES', 'Too many signatures', { field: 'sig', details: `limit ${ctx.limits.maxSignatures}, got ${container.sigs.length}` });
  }
  const body = decodeBody(container.body);
  if (body.kind in UNSUPPORTED) throw unsupported(body);
  const sigs = container.sigs.map(decodeSignature);
  const [nodeTxBody, check] = nodeBody(body, sigs, container.body, ctx, options);
  const tx: NodeTx = {
    txid: '',
    timeNs: 0n,
    raw,
    bodyLength: container.body.length,
    bodyHash: createHash('sha256').update(container.body).digest('hex'),
    body: nodeTxBody,
    signers: [],
  };
  return {
    tx,
    jobs: check.jobs,
    complete(outcomes) {
      tx.signers = check.complete(outcomes);
      return tx;
    },
  };
}

/** All submission checks on this thread. */
export function validateSubmission(raw: Uint8Array, ctx: SubmissionContext, options: SubmissionOptions = {}): NodeTx {
  const prepared = prepareSubmission(raw, ctx, options);
  return prepared.complete(prepared.jobs.map(verifyJob));
}
