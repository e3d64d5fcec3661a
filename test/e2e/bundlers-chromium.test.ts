// The bundler matrix in chromium (helpers/bundler-matrix.ts): each bundler's wallet page mines,
// signs and measures its rate against Node's in the same run.
import { test } from 'uvu';
import { defineMatrix } from '../helpers/bundler-matrix.js';

defineMatrix('chromium');

test.run();
