// The fix a miner-file failure names, read from the URL tried (src/wasm/asset-hint.ts): one
// case per setup the URL betrays, and the page's own file:// origin before any of them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assetHint } from '../../src/wasm/asset-hint.js';

const PAGE = 'http://127.0.0.1:5173/wallet/';

test('a blob: worker refused: the CSP directive to add, or the lean entry', () => {
  const hint = assetHint('miner-worker.js', 'blob:http://127.0.0.1:5173/0b9c-4e', PAGE);
  assert.match(hint, /worker-src blob:/);
  assert.match(hint, /tpkit\/browser\/lean/);
});

test('a page opened from file://: serve it over http(s), whatever the URL', () => {
  // blob:null/… is the self-contained entry's worker on a file:// page: Chromium refuses it there, not a CSP.
  for (const url of ['file:///home/me/wallet/dist/miner-worker.js', 'blob:null/1234', 'http://x/miner-worker.js']) {
    const hint = assetHint('miner-worker.js', url, 'file:///home/me/wallet/index.html');
    assert.match(hint, /file:\/\/.*http\(s\).*python3 -m http\.server/);
    assert.not.match(hint, /Content-Security-Policy/);
  }
});

test('a file: URL from an http page: Parcel rewrote import.meta.url; the self-contained entry', () => {
  const hint = assetHint('tpkit-scalar.wasm', 'file:///node_modules/tpkit/dist/browser/tpkit-scalar.wasm', PAGE);
  assert.match(hint, /Parcel/);
  assert.match(hint, /use the entry tpkit\/browser,/);
});

test("Vite's dev server: its pre-bundle folder, and optimizeDeps.exclude", () => {
  const hint = assetHint('miner-worker.js', 'http://127.0.0.1:5173/node_modules/.vite/deps/miner-worker.js', PAGE);
  assert.match(hint, /Vite/);
  assert.match(hint, /optimizeDeps: \{ exclude: \['tpkit'\] \}/);
});

test('anything else: the bundler did not copy the named file; the self-contained entry or serving dist/browser', () => {
  const hint = assetHint('tpkit-simd.wasm', 'http://127.0.0.1:8000/dist/tpkit-simd.wasm', PAGE);
  assert.match(hint, /did not copy tpkit-simd\.wasm/);
  assert.match(hint, /node_modules\/tpkit\/dist\/browser\//);
});

test.run();
