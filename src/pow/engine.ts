// Which JavaScript engine runs this thread, where the miner's choices depend on it. On
// JavaScriptCore (Bun, Safari and every WebKit browser, iOS webviews) the scalar kernel is
// the fastest: JSC runs the SIMD binary's kernels at 0.23 - 0.78 times V8's rate, the scalar
// one at 0.57 - 0.97 (docs/perf/2026-11-25-miner-everywhere.md), so 'auto' starts there
// instead of on 'hybrid'.

/**
 * True on JavaScriptCore: the engine whose Error objects carry a numeric `line` (V8 and
 * SpiderMonkey have none), which holds for Bun and every WebKit embedder whatever its user
 * agent claims.
 */
export function isJavaScriptCore(): boolean {
  return typeof (new Error() as { line?: unknown }).line === 'number';
}
