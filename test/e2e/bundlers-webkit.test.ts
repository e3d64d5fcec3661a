// The bundler matrix in webkit (helpers/bundler-matrix.ts): each bundler's wallet page mines,
// signs and measures its rate against Node's in the same run.
import { test } from 'uvu';
import { defineMatrix } from '../helpers/bundler-matrix.js';

defineMatrix('webkit');

test.run();
