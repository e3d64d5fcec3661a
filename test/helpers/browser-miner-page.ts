// The browser miner test's page (it counts WebAssembly compilations on the page's own thread),
// mining a register body in it, and checking the result in Node (test/browser/miner.test.ts).
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { decodeBody } from '../../src/codec/body-decode.js';
import { keysHash } from '../../src/codec/keys-hash.js';
import { powBits } from '../../src/pow/bits.js';

/** The bundle's API, as the page sees it (imported there by URL). */
export type Tpkit = typeof import('../../src/browser.js');

/**
 * A blank page that counts the WebAssembly compilations made on its own (main) thread. The
 * 8-byte empty module that asks whether a CSP refuses WebAssembly (wasm/kernel.ts) is not a
 * kernel: it is not counted.
 */
export const TEST_PAGE = `<!doctype html><meta charset="utf-8"><title>tpkit browser test</title>
<script>
  globalThis.mainThreadWasm = { sync: 0, compile: 0 };
  WebAssembly.Module = new Proxy(WebAssembly.Module, {
    construct: (target, args) => (args[0]?.byteLength > 8 && mainThreadWasm.sync++, Reflect.construct(target, args)),
  });
  for (const name of ['compile', 'compileStreaming', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) { mainThreadWasm.compile++; return original.apply(this, args); };
  }
  const instantiate = WebAssembly.instantiate;
  // instantiate(bytes) compiles too; instantiate(module) does not.
  WebAssembly.instantiate = function (source, ...rest) {
    if (!(source instanceof WebAssembly.Module)) mainThreadWasm.compile++;
    return instantiate.call(this, source, ...rest);
  };
</script>`;

export interface BrowserMined {
  body: string;
  nonce: string;
  bits: number;
  hashes: number;
  publicKey: string;
  byKernel: Record<string, number>;
  progressCalls: number;
  lastProgressHashes: number;
  /** The search's shared hash counter, read when the promise settled and 300 ms later. */
  counterAtEnd: string;
  counterLater: string;
}

/**
 * Mines a register body in the page with mineRegister on the workers alone (callingThread:
 * false; the page's own thread is tested apart) and returns it as hex for Node to check.
 * The pool is the page's default pool, wrapped only to read the search's hash counter.
 */
export function mineInPage(page: Page, difficulty: number, threads?: number, kernel?: 'hybrid' | 'simd' | 'scalar' | 'memsched'): Promise<BrowserMined> {
  return page.evaluate(
    async ({ difficulty, threads, kernel }) => {
      const t: Tpkit = await import('/browser/tpkit.js' as string);
      const base = t.sharedWebMinerPool();
      let counter: BigInt64Array<ArrayBufferLike> = new BigInt64Array(1);
      const pool = { threads: base.threads, run: (task: Parameters<typeof base.run>[0]) => ((counter = new BigInt64Array(task.counter)), base.run(task)) };
      const publicKey = t.publicKeyOf(t.generateSecretKey());
      let progressCalls = 0;
      let lastProgressHashes = -1;
      const onProgress = (p: { hashes: number }) => {
        progressCalls++;
        lastProgressHashes = p.hashes;
      };
      const r = await t.mineRegister({ publicKeys: [publicKey], difficulty, threads, kernel, pool, onProgress, callingThread: false });
      const counterAtEnd = String(Atomics.load(counter, 0));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return {
        body: t.bytesToHex(r.body),
        nonce: String(r.nonce),
        bits: r.bits,
        hashes: r.hashes,
        publicKey: t.bytesToHex(publicKey),
        byKernel: r.byKernel as Record<string, number>,
        progressCalls,
        lastProgressHashes,
        counterAtEnd,
        counterLater: String(Atomics.load(counter, 0)),
      };
    },
    { difficulty, threads, kernel },
  );
}

export function checkInNode(mined: BrowserMined, difficulty: number): void {
  const body = hexToBytes(mined.body);
  const bits = powBits(body);
  assert.ok(bits >= difficulty, `SHA-512 in Node gives ${bits} bits, difficulty ${difficulty}`);
  assert.is(bits, mined.bits);
  const decoded = decodeBody(body);
  assert.is(decoded.kind, 'register');
  if (decoded.kind === 'register') {
    assert.is(decoded.nonce, BigInt(mined.nonce));
    assert.is(bytesToHex(decoded.keysHash), bytesToHex(keysHash([hexToBytes(mined.publicKey)])));
  }
  // The result's count is the search's counter; the final progress report says the same.
  assert.ok(mined.hashes >= 1);
  assert.is(String(mined.hashes), mined.counterAtEnd);
  assert.ok(mined.progressCalls >= 1, 'onProgress is called at least once, at the end');
  assert.is(mined.lastProgressHashes, mined.hashes);
  assert.is(mined.counterLater, mined.counterAtEnd, 'no worker hashes after the first solution');
}
