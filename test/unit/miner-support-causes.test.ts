// minerSupport()'s causes name what is really at fault: a runtime that compiles no
// WebAssembly at run time (workerd: "code generation disallowed by embedder") is not told
// to report an engine bug, and a page on a plain-HTTP, non-loopback origin learns that it
// is not a secure context rather than that its COOP/COEP headers are missing; the expected
// time says what it is: an estimate from a rate measured under the load of the moment.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { estimateBasis, sharedMemoryCause } from '../../src/pow/support-check.js';
import { describeRefusal, kernelReason } from '../../src/wasm/refusal.js';

/** What workerd's V8 throws from `new WebAssembly.Module(bytes)`. */
const WORKERD = new Error('WebAssembly.Module(): Wasm code generation disallowed by embedder');
/** What Chromium throws under a CSP without 'wasm-unsafe-eval'. */
const CHROMIUM_CSP = new Error(
  "WebAssembly.Module(): Refused to compile or instantiate WebAssembly module because 'wasm-unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"",
);

test('a runtime without run-time compiles is named as such, with a fix that fits it', () => {
  const refusal = describeRefusal(WORKERD, true);
  assert.is(refusal.cause, 'runtime');
  assert.match(refusal.fix, /compiles no WebAssembly at run time/);
  assert.not.match(refusal.fix, /should compile|report/);
  const reason = kernelReason('auto', 'js', { error: WORKERD }, true);
  assert.match(reason, /^the JS fallback: this runtime compiles no WebAssembly at run time; /);
});

test('a CSP refusal stays a CSP refusal, and an unknown failure still asks for a report', () => {
  assert.is(describeRefusal(CHROMIUM_CSP, true).cause, 'csp');
  assert.is(describeRefusal(new Error('out of memory'), true).cause, 'compile');
  assert.is(describeRefusal(new Error('no WebAssembly here'), false).cause, 'missing');
});

test('an insecure origin is named as the cause, whatever its headers say', () => {
  for (const headers of [true, false, null]) {
    const cause = sharedMemoryCause(false, false, headers, false);
    assert.match(cause ?? '', /not a secure context/, String(headers));
  }
  // A secure page without the headers is told about the headers.
  assert.match(sharedMemoryCause(false, false, false, true) ?? '', /Cross-Origin-Opener-Policy/);
  assert.is(sharedMemoryCause(true, true, null, true), undefined);
  // Outside a browser (Node, Bun, Deno) there is no secure context to speak of.
  assert.is(sharedMemoryCause(true, null, null, undefined), undefined);
});

test('the expected time says it is an estimate, from what, under the load of the moment', () => {
  const basis = estimateBasis(2_500_000, 300, 2, 'hybrid');
  assert.match(basis, /^an estimate: kernel 'hybrid' measured at 2\.50 MH\/s on this thread over 300 ms, times 2 threads, under the machine's load at that moment/);
  assert.match(estimateBasis(0, 0, 1, 'js'), /^no estimate: nothing was measured/);
});

test.run();
