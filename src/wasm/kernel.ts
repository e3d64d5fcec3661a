// The one file that knows the WASM module's pointers and entry points (assembly/index.ts).
// Two binaries share that ABI: 'scalar' and 'simd'. The SIMD binary mines with either of
// two kernels: two nonces per compression in i64x2 lanes, or one nonce with scalar rounds
// and the message schedule in i64x2 lanes (the hybrid kernel, its default).
// Where the bytes come from is binary.ts: embedded as base64 (Node, bundlers), or in the
// browser bundle binary.web.ts, which fetches the .wasm files beside it. Nothing is
// decoded, fetched, compiled or instantiated at import time: only when a caller asks.

import { expectBytes } from '../bytes.js';
import { ArgumentError, TpkitError } from '../errors.js';
import { compileBinary, compileBinarySync } from './binary.js';
import type { WasmFlavor } from './flavor.js';
import { probeSimd } from './simd-probe.js';

export type { WasmFlavor } from './flavor.js';

interface Exports {
  memory: WebAssembly.Memory;
  inputPointer(): number;
  inputCapacity(): number;
  outputPointer(): number;
  simdLanes(): number;
  sha256Init(): void;
  sha256Update(length: number): void;
  sha256Final(): void;
  sha512Init(): void;
  sha512Update(length: number): void;
  sha512Final(): void;
  mineInit(length: number): number;
  mineSearch(high: number, low: number, count: number, difficulty: number): number;
  mineHash(high: number, low: number): number;
  mineLanes(lanes: number): number;
  mineMemSchedule(on: number): number;
}

/** Largest nonce count one mineSearch call accepts (the offset it returns is an i32). */
export const MAX_SEARCH_COUNT = 0x7fffffff;
const U64_MAX = (1n << 64n) - 1n;

const moduleCache: Partial<Record<WasmFlavor, WebAssembly.Module>> = {};
// Asynchronous compiles in flight: callers that ask for the same flavor at once share one.
const compiling: Partial<Record<WasmFlavor, Promise<WebAssembly.Module>>> = {};

/** True when this engine has WebAssembly at all (Node --jitless and some hardened browsers have none). */
export function wasmAvailable(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly !== null && typeof WebAssembly.Instance === 'function';
}

/** The smallest module there is: the magic number and version 1, no sections. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
let refusal: { error: unknown } | null | undefined;

/**
 * Why this thread cannot compile WebAssembly, or null when it can: WebAssembly missing, or
 * present and refused (a Content Security Policy without 'wasm-unsafe-eval' makes every
 * compile throw while WebAssembly.validate still answers). Asked once per thread by
 * compiling and instantiating an empty module, which every engine allows synchronously.
 */
export function wasmRefusal(): { error: unknown } | null {
  if (refusal === undefined) {
    if (!wasmAvailable()) {
      refusal = { error: new Error('no WebAssembly here') };
    } else {
      try {
        new WebAssembly.Instance(new WebAssembly.Module(EMPTY_MODULE), {});
        refusal = null;
      } catch (error) {
        refusal = { error };
      }
    }
  }
  return refusal;
}

/** True when this thread can compile and run WebAssembly. */
export const wasmUsable = (): boolean => wasmRefusal() === null;

/** True when this engine runs the SIMD binary: asked with a 29-byte probe module (simd-probe.ts). */
export function simdSupported(): boolean {
  return wasmUsable() && probeSimd();
}

function unavailable(flavor: WasmFlavor, cause?: unknown): TpkitError {
  // FILE_ORIGIN names the page's origin as the cause: kept as it is, so minerSupport() and mineRegister report it.
  if (cause instanceof TpkitError && (cause.code === 'WASM_UNAVAILABLE' || cause.code === 'FILE_ORIGIN')) return cause;
  return new TpkitError('WASM_UNAVAILABLE', 'WebAssembly could not be instantiated', {
    details: `${flavor} binary${cause instanceof Error ? `: ${cause.message}` : ''}`,
    cause,
  });
}

function checkFlavor(flavor: WasmFlavor): void {
  if (flavor !== 'scalar' && flavor !== 'simd') {
    throw new ArgumentError(`"flavor" expected 'scalar' or 'simd', got ${String(flavor)}`);
  }
  const refused = wasmRefusal();
  if (refused) throw unavailable(flavor, refused.error);
  if (flavor === 'simd' && !simdSupported()) throw unavailable(flavor, new Error('SIMD is not supported by this engine'));
}

/**
 * Compiles and instantiates a flavor synchronously. Fine in Node and in workers; a
 * browser's main thread should use loadWasm (engines limit synchronous compilation there,
 * and the browser bundle has no bytes before it has fetched them).
 */
export function loadWasmSync(flavor: WasmFlavor): WasmModule {
  checkFlavor(flavor);
  try {
    let module = moduleCache[flavor];
    if (!module) {
      module = compileBinarySync(flavor);
      moduleCache[flavor] = module;
    }
    return new WasmModule(flavor, new WebAssembly.Instance(module, {}).exports as unknown as Exports);
  } catch (err) {
    throw unavailable(flavor, err);
  }
}

/**
 * Modules compiled so far in this thread, by flavor: a pool hands them to its threads
 * (a WebAssembly.Module can be posted), so each binary is compiled once per process or page.
 */
export function compiledWasmModules(): Partial<Record<WasmFlavor, WebAssembly.Module>> {
  return { ...moduleCache };
}

/** Adopts modules compiled elsewhere (another thread, or tpkit/kernels on a page): loading those flavors here compiles and fetches nothing. */
export function adoptWasmModules(modules: Partial<Record<WasmFlavor, WebAssembly.Module>>): void {
  // Without WebAssembly there is nothing to adopt, and no WebAssembly.Module to test against.
  if (!wasmAvailable() || typeof WebAssembly.Module !== 'function') return;
  for (const flavor of ['scalar', 'simd'] as const) {
    const module = modules[flavor];
    if (module instanceof WebAssembly.Module) moduleCache[flavor] ??= module;
  }
}

function compileOnce(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  const cached = moduleCache[flavor];
  if (cached) return Promise.resolve(cached);
  let pending = compiling[flavor];
  if (!pending) {
    pending = compileBinary(flavor).then(
      (module) => {
        moduleCache[flavor] ??= module;
        delete compiling[flavor];
        return moduleCache[flavor];
      },
      (err: unknown) => {
        delete compiling[flavor];
        throw err;
      },
    );
    compiling[flavor] = pending;
  }
  return pending;
}

/** Compiles a flavor asynchronously, once per thread (concurrent callers share one compile). */
export function compileWasm(flavor: WasmFlavor): Promise<WebAssembly.Module> {
  try {
    checkFlavor(flavor);
  } catch (err) {
    return Promise.reject(err);
  }
  return compileOnce(flavor).catch((err: unknown) => {
    throw unavailable(flavor, err);
  });
}

/** Compiles (once per flavor, concurrent callers included) and instantiates asynchronously. */
export async function loadWasm(flavor: WasmFlavor): Promise<WasmModule> {
  checkFlavor(flavor);
  try {
    const module = await compileOnce(flavor);
    const instance = await WebAssembly.instantiate(module, {});
    return new WasmModule(flavor, instance.exports as unknown as Exports);
  } catch (err) {
    throw unavailable(flavor, err);
  }
}

/**
 * One instance: SHA-256, SHA-512 and the register-body miner over fixed buffers. The
 * memory never grows, so the byte view taken here stays valid. Not reentrant: one
 * instance serves one caller at a time (each worker thread owns its own).
 */
export class WasmModule {
  readonly flavor: WasmFlavor;
  /** Most nonces per compression the binary's kernels take: 2 for SIMD, 1 for scalar. */
  readonly maxLanes: number;
  /** Largest body the miner takes, and largest chunk one hash update takes. */
  readonly inputCapacity: number;
  readonly #x: Exports;
  readonly #memory: Uint8Array;
  readonly #input: number;
  readonly #output: number;
  #bodyLength = -1;
  #lanes = 1;

  constructor(flavor: WasmFlavor, exports: Exports) {
    this.flavor = flavor;
    this.#x = exports;
    this.#memory = new Uint8Array(exports.memory.buffer);
    this.#input = exports.inputPointer();
    this.#output = exports.outputPointer();
    this.inputCapacity = exports.inputCapacity();
    this.maxLanes = exports.simdLanes();
  }

  /** Nonces per compression of the kernel mineSearch runs (1 unless useLanes(2) was called). */
  get lanes(): number {
    return this.#lanes;
  }

  /** 2: mineSearch runs the two-lane SIMD kernel; 1: the scalar or hybrid one. */
  useLanes(lanes: 1 | 2): void {
    if ((lanes !== 1 && lanes !== 2) || lanes > this.maxLanes) {
      throw new ArgumentError(`"lanes" expected 1${this.maxLanes === 2 ? ' or 2' : ''}, got ${String(lanes)}`);
    }
    this.#lanes = this.#x.mineLanes(lanes);
  }

  /**
   * Scalar binary only: mineSearch runs the memsched kernel (the message schedule in memory,
   * what JavaScriptCore's optimizing tier runs fastest) instead of the scalar one.
   */
  useMemSchedule(): void {
    if (this.#x.mineMemSchedule(1) !== 1) throw new ArgumentError(`the memsched kernel is in the scalar binary, not in the ${this.flavor} one`);
  }

  #absorb(data: Uint8Array, update: (length: number) => void): void {
    const capacity = this.inputCapacity;
    for (let offset = 0; offset < data.length; offset += capacity) {
      const chunk = data.subarray(offset, Math.min(offset + capacity, data.length));
      this.#memory.set(chunk, this.#input);
      update(chunk.length);
    }
  }

  sha256(data: Uint8Array): Uint8Array {
    expectBytes(data, 'data');
    const x = this.#x;
    x.sha256Init();
    this.#absorb(data, x.sha256Update);
    x.sha256Final();
    return this.#memory.slice(this.#output, this.#output + 32);
  }

  sha512(data: Uint8Array): Uint8Array {
    expectBytes(data, 'data');
    const x = this.#x;
    x.sha512Init();
    this.#absorb(data, x.sha512Update);
    x.sha512Final();
    return this.#memory.slice(this.#output, this.#output + 64);
  }

  /** Stores the body to mine; its last 8 bytes are the big-endian nonce. */
  mineInit(body: Uint8Array): void {
    if (!(body instanceof Uint8Array) || body.length < 8 || body.length > this.inputCapacity) {
      const got = body instanceof Uint8Array ? `${body.length} bytes` : typeof body;
      throw new ArgumentError(`"body" expected 8 to ${this.inputCapacity} bytes, got ${got}`);
    }
    this.#memory.set(body, this.#input);
    this.#x.mineInit(body.length);
    this.#bodyLength = body.length;
  }

  /**
   * Searches nonces start .. start + count - 1 in increasing order and returns the offset
   * of the first whose SHA-512 has at least `difficulty` leading zero bits, or -1.
   */
  mineSearch(start: bigint, count: number, difficulty: number): number {
    if (this.#bodyLength < 0) throw new ArgumentError('mineSearch called before mineInit');
    if (!Number.isInteger(count) || count < 0 || count > MAX_SEARCH_COUNT) {
      throw new ArgumentError(`"count" expected an integer 0..${MAX_SEARCH_COUNT}, got ${count}`);
    }
    if (typeof start !== 'bigint' || start < 0n || start + BigInt(count) > U64_MAX) {
      throw new ArgumentError(`"start" expected a uint64 with start + count < 2^64, got ${String(start)}`);
    }
    if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > 512) {
      throw new ArgumentError(`"difficulty" expected an integer 0..512, got ${difficulty}`);
    }
    if (count === 0) return -1;
    return this.#x.mineSearch(Number(start >> 32n), Number(start & 0xffffffffn), count, difficulty);
  }

  /** SHA-512 of the stored body with `nonce` patched in. */
  mineHash(nonce: bigint): Uint8Array {
    if (this.#bodyLength < 0) throw new ArgumentError('mineHash called before mineInit');
    this.#x.mineHash(Number((nonce >> 32n) & 0xffffffffn), Number(nonce & 0xffffffffn));
    return this.#memory.slice(this.#output, this.#output + 64);
  }
}
