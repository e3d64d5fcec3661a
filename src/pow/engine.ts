// Which JavaScript engine runs this thread, where the miner's choices depend on it. On
// JavaScriptCore (Bun, Safari and every WebKit browser, iOS webviews) 'auto' starts on the
// memsched kernel instead of on 'hybrid': JSC's optimizing tier spills the scalar kernel's
// 64 schedule locals, and each i64x2 shift by a constant costs it three more instructions
// (the count moved into a vector register), so the kernel with the schedule in memory is
// the one Bun runs fastest; 'auto' keeps measuring (docs/perf/2026-11-28-jsc.md).

/**
 * True on JavaScriptCore: the engine whose Error objects carry a numeric `line` (V8 and
 * SpiderMonkey have none), which holds for Bun and every WebKit embedder whatever its user
 * agent claims.
 */
export function isJavaScriptCore(): boolean {
  return typeof (new Error() as { line?: unknown }).line === 'number';
}
