// The expected registration time shown under the node: the miner's start-up, measured, plus
// the hashing time at this device's measured speed against the node's difficulty. The speed
// is the workers' own rate after the page-load warm-up, or the benchmark's once there is
// one; the per-worker figure and kernel come from the calibration.

import { calibrate, estimateMining, sharedWebMinerPool } from './browser/tpkit.js';
import { showError, setStatus } from './dom.js';
import { explain } from './explain.js';
import { formatDuration, formatRate } from './format.js';
import { minerThreads, state } from './state.js';

/**
 * The page-load warm-up: the page compiles the kernels once, every worker starts, and all
 * hash for a moment so the first registration runs optimized code at once. It measures the
 * start-up that it pays ahead (state.warmUp).
 */
let warming;
export function warmMiner() {
  warming ??= sharedWebMinerPool()
    .warm()
    .then((w) => (state.warmUp = w));
  return warming;
}

/** One calibration per page, after the warm-up: both would share the cores. */
let calibrating;
function calibration() {
  calibrating ??= (warming ?? Promise.resolve())
    .catch(() => {})
    .then(() => calibrate())
    .then((c) => (state.calibration = c));
  return calibrating;
}

/** Resolves once a calibration that has started ends (it runs on the page's own thread). */
export function calibrationSettled() {
  return calibrating?.catch(() => {});
}

export async function showEstimate() {
  const difficulty = state.difficulty;
  if (difficulty === null) return;
  const workers = minerThreads();
  if (!state.calibration) setStatus('estimate', 'Measuring how fast this device mines…');
  let c;
  try {
    c = await calibration();
  } catch (err) {
    setStatus('estimate', '');
    showError('node-error', `Calibration failed. ${explain(err)}`);
    return;
  }
  // One rate for every figure: the benchmark's once it has run, else the workers' own after
  // the warm-up, else the calibration's per-worker rate times the workers. The per-worker
  // figure is that same rate shared out.
  const warm = state.warmUp;
  const rate = state.measuredRate ?? (warm?.hashRate > 0 ? warm.hashRate : c.hashRate * workers);
  const workersText = `${workers} worker${workers === 1 ? '' : 's'}`;
  const source = state.measuredRate ? 'as the benchmark measured' : warm?.hashRate > 0 ? 'after warming up' : 'if they scale evenly from the calibration';
  const speed = `${formatRate(rate)}: ${workersText} ${source}, ${formatRate(rate / workers)} each (${c.kernel} kernel)`;
  if (difficulty === 0) {
    setStatus('estimate', `This device mines at ${speed}. This node asks for no proof of work: registration takes no mining.`);
    return;
  }
  // Start-up, measured: what the last registration here spent before hashing; before any,
  // nothing once the page-load warm-up has paid it ahead (its figure is shown).
  let startupMs = 0;
  let startup = '';
  if (state.startupMs !== null) {
    startupMs = state.startupMs;
    startup = `${formatDuration(startupMs)} start-up, measured on the last registration, + `;
  } else if (warm && Number.isFinite(warm.readyMs)) {
    startup = `start-up paid at page load (${formatDuration(warm.readyMs)}, measured) + `;
  }
  const e = estimateMining(difficulty, rate);
  const total = (ms) => formatDuration(startupMs + ms);
  setStatus(
    'estimate',
    `Registration at difficulty ${difficulty}: ${total(e.medianMs)} (median; ${startup}${formatDuration(e.medianMs)} hashing), ` + `at most ${total(e.p95Ms)} 95 times in 100, at ${speed}.`,
  );
}
