// The expected registration time shown under the node: this device's calibrated speed per
// worker, or the benchmark's measured rate once there is one, against the node's difficulty.

import { calibrate, estimateMining } from './browser/tpkit.js';
import { showError, setStatus } from './dom.js';
import { explain } from './explain.js';
import { formatDuration, formatRate } from './format.js';
import { minerThreads, state } from './state.js';

/** One calibration per page: the device does not change while it is open. */
let calibrating;
function calibration() {
  calibrating ??= calibrate().then((c) => (state.calibration = c));
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
  const perWorker = `This device mines about ${formatRate(c.hashRate)} per worker (${c.kernel} kernel, measured in ${formatDuration(c.elapsedMs)}).`;
  if (difficulty === 0) {
    setStatus('estimate', `${perWorker} This node asks for no proof of work: registration takes no mining.`);
    return;
  }
  const rate = state.measuredRate ?? c.hashRate * workers;
  const source = state.measuredRate ? `at the ${formatRate(rate)} the benchmark measured` : `with ${workers} worker${workers === 1 ? '' : 's'}, if they scale evenly`;
  const e = estimateMining(difficulty, rate);
  setStatus(
    'estimate',
    `${perWorker} Registration at difficulty ${difficulty} ${source}: ${formatDuration(e.medianMs)} (median), ` +
      `at most ${formatDuration(e.p95Ms)} 95 times in 100.`,
  );
}
