// The bench's first section: minerSupport() as lines of text, what this environment offers
// the miner and what `auto` mines with here, before any figure of the run.

import type { MinerSupport } from '../pow/support.js';
import { formatDuration, formatRate } from './progress.js';

export function renderSupport(s: MinerSupport): string[] {
  const wasm = s.webAssembly;
  const refusal = wasm.refusal;
  const rows: [string, string][] = [
    ['engine', s.engine],
    [
      'WebAssembly',
      wasm.usable
        ? 'yes'
        : refusal
          ? `${refusal.cause === 'missing' ? 'missing' : refusal.cause === 'csp' ? `refused by the Content Security Policy${refusal.directive ? ` (${refusal.directive})` : ''}` : 'does not compile'}: ${refusal.message}`
          : 'no',
    ],
    ['SIMD', !s.simd.present ? 'absent' : s.simd.correct ? 'present, known answers right' : `present but WRONG (${s.simd.detail}); 'auto' leaves it out`],
    [
      'workers',
      s.workers.usable === null
        ? `${s.workers.threads} (not started)`
        : s.workers.usable
          ? `${s.workers.threads} threads, running`
          : `not running (${s.workers.error}): the calling thread mines alone`,
    ],
    ['shared memory', s.sharedMemory.cause ? `no: ${s.sharedMemory.cause}` : 'yes'],
    ['cores', String(s.cores)],
    ['kernel', `${s.kernel}: ${s.kernelReason}`],
    ['rates', (Object.entries(s.rates) as [string, number][]).map(([name, rate]) => `${name} ${formatRate(rate)}`).join(', ') || 'not measured'],
    [
      'expected',
      s.hashRate > 0
        ? `difficulty ${s.expected.difficulty} on ${s.threads} thread${s.threads > 1 ? 's' : ''} at ${formatRate(s.hashRate)}: median ${formatDuration(s.expected.medianMs)}, p95 ${formatDuration(s.expected.p95Ms)}`
        : 'not measured',
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
}
