// Which kernel 'auto' settles on in this engine, found the way a miner thread finds it: the
// kernels of kernelsFor('auto'), run by runSearchTask with its kernel race (search-task.ts,
// kernel-race.ts) over a sample register body at a difficulty never met, for a measuring
// window, with a turn of the event loop between short runs. minerSupport() reports this
// kernel and its rate, so it says what 'auto' does, not what another measurement would pick
// (JavaScriptCore starts 'auto' on the scalar kernel, and a rival a few per cent faster
// does not make the race switch). It imports only types: support-check.ts hands it the
// functions, so in the browser build it is part of that chunk and not of the bundle.

import type { ArgumentError } from '../errors.js';
import type { loadKernel, KernelName, MiningKernel } from './kernel.js';
import type { createSearchState, runSearchTask, SearchTask } from './search-task.js';
import type { kernelsFor } from './task-runner.js';

/** The miner's functions it runs: the very ones a miner thread's search runs. */
export interface AutoMeasureDeps {
  ArgumentError: typeof ArgumentError;
  loadKernel: typeof loadKernel;
  kernelsFor: typeof kernelsFor;
  createSearchState: typeof createSearchState;
  runSearchTask: typeof runSearchTask;
}

export interface AutoMeasurement {
  /** The kernel the race keeps at the end of the window: the one 'auto' mines with here. */
  kernel: KernelName;
  /** Its hashes per second on one thread, over the window's second half. */
  hashRate: number;
  /** Hashes per second of each kernel 'auto' runs here (the ones the race only probed, from its probes or one slice). */
  rates: Partial<Record<KernelName, number>>;
  elapsedMs: number;
}

export interface AutoMeasureOptions {
  /** Measuring time (default 300 ms, at most 1000). */
  durationMs?: number;
  /** Kernels to race (default: the ones 'auto' runs here, loaded). For tests. */
  kernels?: readonly MiningKernel[];
  /** Milliseconds (default performance.now; a virtual clock in tests). */
  clock?: () => number;
}

/** A register body with one key and no extra data: one SHA-512 block. */
const SAMPLE_BODY = (): Uint8Array => new Uint8Array(66).map((_, i) => (i * 151 + 7) & 0xff);
/** One run between two turns of the event loop. */
const RUN_MS = 20;

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A kernel that adds the time of each of its calls to `spent[name]`. */
function timedKernel(kernel: MiningKernel, clock: () => number, spent: Partial<Record<KernelName, number>>, hashes: Partial<Record<KernelName, number>>): MiningKernel {
  return {
    name: kernel.name,
    lanes: kernel.lanes,
    init: (body) => kernel.init(body),
    search: (start, count, difficulty) => {
      const began = clock();
      const offset = kernel.search(start, count, difficulty);
      spent[kernel.name] = (spent[kernel.name] ?? 0) + clock() - began;
      hashes[kernel.name] = (hashes[kernel.name] ?? 0) + (offset >= 0 ? offset + 1 : count);
      return offset;
    },
  };
}

export async function measureAuto(deps: AutoMeasureDeps, options: AutoMeasureOptions = {}): Promise<AutoMeasurement> {
  const { ArgumentError, loadKernel, kernelsFor, createSearchState, runSearchTask } = deps;
  const durationMs = options.durationMs ?? 300;
  if (typeof durationMs !== 'number' || !(durationMs > 0) || durationMs > 1000) {
    throw new ArgumentError(`"durationMs" expected a number in (0, 1000], got ${String(durationMs)}`);
  }
  const clock = options.clock ?? (() => performance.now());
  const kernels = options.kernels ?? (await Promise.all(kernelsFor('auto').map(loadKernel)));
  const spent: Partial<Record<KernelName, number>> = {};
  const hashes: Partial<Record<KernelName, number>> = {};
  const state = createSearchState(kernels.map((k) => timedKernel(k, clock, spent, hashes)));
  const task: SearchTask = {
    body: SAMPLE_BODY(),
    difficulty: 512,
    start: 0n,
    end: 1n << 62n,
    kernel: 'auto',
    control: new ArrayBuffer(8),
    counter: new ArrayBuffer(8),
    sliceMs: 4,
  };
  const began = clock();
  let kept: KernelName = kernels[0].name;
  let halfway: { spent: Partial<Record<KernelName, number>>; hashes: Partial<Record<KernelName, number>> } | undefined;
  while (clock() - began < durationMs) {
    const result = runSearchTask(state, task, { untilMs: clock() + RUN_MS, markStart: false, clock });
    task.start = result.next ?? task.start;
    kept = result.kernel;
    // The first half lets the engine tier the kernels up; the rates come from the second.
    if (!halfway && clock() - began >= durationMs / 2) halfway = { spent: { ...spent }, hashes: { ...hashes } };
    if (!options.clock) await yieldToEventLoop();
  }
  // A kernel the race did not probe in the window still gets a rate: one slice of its own.
  for (const kernel of state.kernels) {
    if (spent[kernel.name] !== undefined) continue;
    kernel.init(task.body);
    kernel.search(task.start, 1024 * kernel.lanes, task.difficulty);
  }
  const from = halfway ?? { spent: {}, hashes: {} };
  const rates: Partial<Record<KernelName, number>> = {};
  for (const name of Object.keys(spent) as KernelName[]) {
    const ms = (spent[name] ?? 0) - (from.spent[name] ?? 0);
    const done = (hashes[name] ?? 0) - (from.hashes[name] ?? 0);
    // A kernel probed only in the first half is given its rate over the whole window.
    const total = spent[name] ?? 0;
    if (ms > 0) rates[name] = (done / ms) * 1000;
    else if (total > 0) rates[name] = ((hashes[name] ?? 0) / total) * 1000;
  }
  const hashRate = rates[kept] ?? 0;
  return { kernel: kept, hashRate, rates, elapsedMs: clock() - began };
}
