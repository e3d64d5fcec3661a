// webpack 5 defaults, production mode. No rule for tpkit.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js' },
};
