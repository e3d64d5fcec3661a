// The calling thread's share of a search: it hashes at once, in slices of a few
// milliseconds with a turn of the event loop between two, while the pool's threads start.
// It stops as soon as every pool thread hashes, or the search stops. The kernels it loads
// are kept for the thread's lifetime, and the modules it compiles are handed to the pool,
// so each binary is compiled once per process or page.

import { compileWasm, type WasmFlavor } from '../wasm/kernel.js';
import { isJavaScriptCore } from './engine.js';
import { availableKernels, kernelFlavor, type KernelName } from './kernel.js';
import { RUNNING, runSearchTask, type KernelChoice, type SearchState, type SearchTask } from './search-task.js';
import { createStateCache, kernelsFor } from './task-runner.js';

const states = createStateCache();

/**
 * What the calling thread runs for a choice. For 'auto', the scalar kernel: V8 runs it at
 * full speed a few milliseconds after compiling it, where the SIMD binary's kernels can spend
 * tens of milliseconds up to about 120 ms in its baseline tier at a fraction of their speed
 * (bench/kernel-tier-up.ts). On JavaScriptCore the memsched kernel: in Bun 1.4.5 both hash
 * about 2.4 MH/s in their first 20 ms, then memsched 5.7 - 6.0 and scalar 3.1 once JSC's
 * optimizing tier has compiled them, 40 ms in (docs/perf/2026-11-28-jsc.md).
 */
export function callingThreadChoice(choice: KernelChoice): KernelChoice {
  const first: KernelName = isJavaScriptCore() ? 'memsched' : 'scalar';
  return choice === 'auto' && availableKernels().includes(first) ? first : choice;
}

/** The calling thread's kernels for a choice, loaded (compiled) once. */
export function callingThreadState(choice: KernelChoice): Promise<SearchState> {
  return states(callingThreadChoice(choice));
}

/**
 * The calling thread's kernels once it mines alone (the pool's threads failed to start): for
 * 'auto', the whole race a miner thread runs, so it keeps the kernel minerSupport() names.
 */
export function callingThreadAloneState(choice: KernelChoice): Promise<SearchState> {
  return states(choice);
}

/** The modules the pool's threads need for a choice, compiled here once; what fails to compile is left to them. */
export async function modulesFor(choice: KernelChoice): Promise<Partial<Record<WasmFlavor, WebAssembly.Module>>> {
  const flavors = new Set(
    kernelsFor(choice)
      .filter((name) => name !== 'js')
      .map((name) => kernelFlavor(name as Exclude<KernelName, 'js'>)),
  );
  const modules: Partial<Record<WasmFlavor, WebAssembly.Module>> = {};
  await Promise.all(
    [...flavors].map((flavor) =>
      compileWasm(flavor).then(
        (module) => {
          modules[flavor] = module;
        },
        () => undefined,
      ),
    ),
  );
  return modules;
}

/** Lets the event loop run (timers, I/O, worker messages) before the next slice. */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  // Browsers: a message task, not setTimeout, which clamps to 4 ms after a few nestings.
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

export interface CallingThreadTally {
  hashes: number;
  busyMs: number;
  byKernel: Partial<Record<KernelName, number>>;
  /** Where the calling thread stopped when the pool took over before its range ended. */
  handedOverAt?: bigint;
}

/**
 * Searches task.start .. task.end - 1 in time slices, each on the kernels `state()` gives then, until it finds a nonce (returned),
 * the range ends, the stop flag is raised or `handOver()` says the pool has taken over
 * (null; `tally.handedOverAt` then says where the rest of the range begins). `tally` is updated after every slice, so a search that ends meanwhile counts it.
 */
export async function searchOnCallingThread(state: () => SearchState, task: SearchTask, handOver: () => boolean, tally: CallingThreadTally): Promise<bigint | null> {
  const stop = new Int32Array(task.control);
  let cursor = task.start;
  while (cursor < task.end && Atomics.load(stop, 0) === RUNNING && !handOver()) {
    const result = runSearchTask(state(), { ...task, start: cursor }, { untilMs: performance.now() + task.sliceMs, markStart: false });
    tally.hashes += result.hashes;
    tally.busyMs += result.busyMs;
    for (const [name, count] of Object.entries(result.byKernel) as [KernelName, number][]) {
      tally.byKernel[name] = (tally.byKernel[name] ?? 0) + count;
    }
    if (result.nonce !== null) return result.nonce;
    cursor = result.next ?? task.end;
    await yieldToEventLoop();
  }
  if (cursor < task.end && Atomics.load(stop, 0) === RUNNING) tally.handedOverAt = cursor;
  return null;
}
