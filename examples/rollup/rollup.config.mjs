// Rollup's usual browser build: node-resolve, commonjs, terser. No plugin for tpkit.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

export default {
  input: 'main.js',
  output: { dir: 'dist', format: 'es' },
  plugins: [nodeResolve({ browser: true }), commonjs(), terser()],
};
