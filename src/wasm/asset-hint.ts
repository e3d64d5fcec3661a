// The fix to name when the browser build could not load one of the miner's files (its
// worker script or a kernel), read from the URL it tried. Bundlers leave marks in it: Parcel turns import.meta.url into a file: URL, Vite's
// dev server serves pre-bundled dependencies from /node_modules/.vite/deps/, and a blob:
// worker is the self-contained entry under a strict Content-Security-Policy. Part of
// asset-load.ts's chunk, so the lean bundle does not carry this text.

/** One of the miner's files: the worker script, or a kernel's binary. */
export type MinerAsset = 'miner-worker.js' | 'tpkit-scalar.wasm' | 'tpkit-simd.wasm';

/** The likely cause and fix for `asset` failing at `url` on a page at `pageUrl` (default: this page). */
export function assetHint(asset: MinerAsset, url: string, pageUrl = globalThis.location?.href ?? ''): string {
  const inline = 'use the entry tpkit/browser, which carries the worker and kernels inside';
  // Checked in Chromium: from file:// a module worker (a blob: one included) and fetch are refused; the self-contained entry in a classic script still mines on the page's thread.
  if (pageUrl.startsWith('file:')) {
    return "a page opened from file:// cannot load module workers or fetch: serve it over http(s), e.g. `npx vite` or `python3 -m http.server` in its folder and open http://localhost; from file:// only the entry tpkit/browser bundled into a classic (non-module) script runs, and it mines on the page's thread alone";
  }
  if (url.startsWith('blob:')) return "the page's Content-Security-Policy refused a blob: worker: allow worker-src blob:, or use the entry tpkit/browser/lean and serve its files";
  if (url.startsWith('file:')) return `the bundler (Parcel) replaced import.meta.url with a file: URL: ${inline}`;
  if (url.includes('/.vite/')) return `Vite's dev server pre-bundled tpkit without its files: ${inline}, or add optimizeDeps: { exclude: ['tpkit'] } to vite.config`;
  return `the bundler (esbuild, Rollup) did not copy ${asset} beside the bundle: ${inline}, or serve node_modules/tpkit/dist/browser/ beside it`;
}
