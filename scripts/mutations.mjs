// The mutations `npm run mutate` applies, one at a time: each is a bug that could really
// happen, and `tests` names the compiled test files that must catch it (the first to fail
// ends the run of that mutation). `find` must occur exactly once in `file`, else the mutation
// is reported stale. `file` may list candidates: the first that exists is used, for code
// that may move to another file. Add one whenever a bug is fixed.
//
// { id, file, find, replace, tests, why }

import { CODEC_CRYPTO } from './mutations/codec-crypto.mjs';
import { POW_CLIENT_CLI } from './mutations/pow-client-cli.mjs';
import { NODE_LEDGER } from './mutations/node-ledger.mjs';
import { NODE_FRONT } from './mutations/node-front.mjs';
import { SHAPES } from './mutations/shapes.mjs';

export const MUTATIONS = [...CODEC_CRYPTO, ...POW_CLIENT_CLI, ...NODE_LEDGER, ...NODE_FRONT, ...SHAPES];
