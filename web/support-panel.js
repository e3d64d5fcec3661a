// What this browser offers the miner (minerSupport()): WebAssembly and why not, SIMD and
// whether it computes right, workers, shared memory and the real reason it is missing, the
// kernel 'auto' mines with and the expected time to a proof. Shown in section 4 once the
// page-load warm-up has ended (both would share the cores), and the isolation line under
// the node names the real cause when shared memory is missing.

import { minerSupport, sharedWebMinerPool } from './browser/tpkit.js';
import { $ } from './dom.js';
import { explain } from './explain.js';
import { formatDuration, formatRate } from './format.js';
import { minerThreads, state } from './state.js';

function rows(s) {
  const wasm = s.webAssembly;
  const refusal = wasm.refusal;
  const why = refusal
    ? `${refusal.cause === 'csp' ? `refused by the page's Content Security Policy${refusal.directive ? ` (${refusal.directive})` : ''}` : refusal.cause === 'missing' ? 'not available in this browser' : 'does not compile'}. ${refusal.fix}.`
    : '';
  const rates = Object.entries(s.rates)
    .map(([name, rate]) => `${name} ${formatRate(rate)}`)
    .join(', ');
  return [
    ['Engine', s.engine],
    ['WebAssembly', wasm.usable ? 'yes' : `no: ${why}`],
    ['SIMD', !s.simd.present ? 'absent (the scalar kernel runs)' : s.simd.correct ? 'present, and its known answers are right' : `present but wrong (${s.simd.detail}): left out`],
    ['Workers', s.workers.usable ? `${s.workers.threads} running` : `not running (${s.workers.error ?? 'none here'}): this page's thread mines alone`],
    ['Shared memory', s.sharedMemory.cause ? `no: ${s.sharedMemory.cause}` : 'yes'],
    ['Cores reported', String(s.cores)],
    ['Kernel', `${s.kernel}: ${s.kernelReason}`],
    ['Measured', rates || 'nothing'],
    [
      'Expected',
      s.hashRate > 0
        ? `difficulty ${s.expected.difficulty} on ${s.threads} thread${s.threads === 1 ? '' : 's'} at ${formatRate(s.hashRate)}: ${formatDuration(s.expected.medianMs)} (median), ${formatDuration(s.expected.p95Ms)} (p95)`
        : 'not measured',
    ],
  ];
}

export async function showSupport() {
  const list = $('miner-support');
  try {
    const s = await minerSupport({ difficulty: state.difficulty ?? 16, measureMs: 200, pool: sharedWebMinerPool() });
    state.support = s;
    list.replaceChildren(
      ...rows(s).flatMap(([term, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = term;
        const dd = document.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
    list.dataset.ready = 'true';
    if (s.sharedMemory.cause) {
      $('isolation').textContent =
        `Miner: ${minerThreads()} Web Workers, one per logical core. No shared memory: ${s.sharedMemory.cause}. Workers mine in runs of about 50 ms and stop at the end of one.`;
    }
  } catch (err) {
    list.replaceChildren(Object.assign(document.createElement('dd'), { textContent: `Could not check: ${explain(err)}` }));
  }
}
