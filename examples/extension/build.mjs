// Builds the extension: page.js and background.js bundled by esbuild into dist/, with
// tpkit/browser (the worker and the kernels inside: no file to copy). Run from examples/:
//   node extension/build.mjs      then load examples/extension/ as an unpacked extension.
import { build } from 'esbuild';

await build({
  entryPoints: { page: 'extension/page.js', background: 'extension/background.js' },
  outdir: 'extension/dist',
  bundle: true,
  format: 'esm',
  splitting: false,
  logLevel: 'warning',
});
