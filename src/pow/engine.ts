// Which JavaScript engine runs this thread, where the miner's choices depend on it. On
// JavaScriptCore (Bun, Safari and every WebKit browser, iOS webviews) the scalar kernel is
// the fastest: JSC runs the SIMD binary's kernels at 0.3 - 0.7 times V8's rate, the scalar one
// at about V8's (docs/guide/miner-support.md), so 'auto' starts there instead of on 'hybrid'.

/**
 * True on JavaScriptCore: Bun says so; elsewhere JSC is the engine whose Error objects carry a
 * numeric `line` (V8 and SpiderMonkey have none), which holds for every WebKit embedder
 * whatever its user agent claims.
 */
export function isJavaScriptCore(): boolean {
  if (typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined') return true;
  return typeof (new Error() as { line?: unknown }).line === 'number';
}
