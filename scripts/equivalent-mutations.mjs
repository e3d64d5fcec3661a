// Fresh mutations shown to change nothing a caller can observe, each with the reason. The
// mutation run lists a drawn mutation that matches one here (same file, same line before and
// after) as equivalent, with its reason, and leaves it out of the kill rate. An entry stays only
// while the reason holds: when the code around it changes, the entry stops matching and the
// mutation is run again.
//
// { file, original, mutated, why, context? }: `original` and `mutated` are the trimmed line, as
// the run prints them ("original  ->  mutated"); `context`, for a line that occurs more than once
// in its file, is text of the lines just before it that only this occurrence has.

import { EQUIVALENT_LIBRARY } from './mutations/equivalent-library.mjs';
import { EQUIVALENT_NODE_LEDGER } from './mutations/equivalent-node-ledger.mjs';
import { EQUIVALENT_NODE_FRONT } from './mutations/equivalent-node-front.mjs';

export const EQUIVALENT = [...EQUIVALENT_LIBRARY, ...EQUIVALENT_NODE_LEDGER, ...EQUIVALENT_NODE_FRONT];
