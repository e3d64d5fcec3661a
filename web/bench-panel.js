// Section 4, the benchmark: runs benchmark.js over 1..N workers, shows each count's rate in
// a table and a bar chart, and hands the full pool's rate to the registration estimate.

import { $, clearError, setStatus, showError } from './dom.js';
import { benchmarkWorkers } from './benchmark.js';
import { renderBarChart } from './chart.js';
import { calibrationSettled, showEstimate } from './estimate.js';
import { explain } from './explain.js';
import { formatRate } from './format.js';
import { minerThreads, state } from './state.js';

function showBenchmark(results) {
  const base = results[0]?.hashRate || 1;
  const rows = results.map((r) => {
    const tr = document.createElement('tr');
    tr.dataset.workers = String(r.workers);
    tr.dataset.rate = String(Math.round(r.hashRate));
    for (const [text, cls] of [
      [String(r.workers), ''],
      [formatRate(r.hashRate), 'num'],
      [formatRate(r.hashRate / r.workers), 'num'],
      [`${(r.hashRate / base).toFixed(2)}×`, 'num'],
    ]) {
      const td = document.createElement('td');
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  });
  $('bench-rows').replaceChildren(...rows);
  const figures = results.map((r) => `${r.workers} worker${r.workers === 1 ? '' : 's'}: ${formatRate(r.hashRate)}`).join(', ');
  renderBarChart($('bench-chart'), {
    items: results.map((r) => ({ label: `${r.workers} worker${r.workers === 1 ? '' : 's'}`, value: r.hashRate })),
    format: formatRate,
    title: 'Hash rate per worker count',
    description: figures,
    axisLabel: 'Web Workers mining at once',
  });
  $('bench-figure').hidden = false;
}

export async function runBenchmark() {
  clearError('bench-error');
  if (state.busy === 'register') {
    showError('bench-error', 'A registration is using the workers. Wait for it, or press Cancel.');
    return;
  }
  if (state.busy === 'bench') return;
  const controller = new AbortController();
  state.benchAbort = controller;
  state.busy = 'bench';
  delete $('bench-figure').dataset.complete;
  $('bench-run').hidden = true;
  $('bench-stop').hidden = false;
  $('register').disabled = true;
  const max = minerThreads();
  try {
    // The calibration runs on this page's thread: let it end before the workers start.
    await calibrationSettled();
    const results = await benchmarkWorkers({
      maxWorkers: max,
      signal: controller.signal,
      onStart: (workers) => setStatus('bench-status', `Measuring ${workers} of ${max} worker counts…`),
      onResult: showBenchmark,
    });
    if (controller.signal.aborted) {
      setStatus('bench-status', `Stopped after ${results.length} of ${max} worker counts.`);
    } else {
      const best = results.reduce((a, b) => (b.hashRate > a.hashRate ? b : a));
      state.measuredRate = results[results.length - 1].hashRate;
      setStatus('bench-status', `Done: the best is ${formatRate(best.hashRate)} with ${best.workers} worker${best.workers === 1 ? '' : 's'}.`, true);
      $('bench-figure').dataset.complete = 'true';
      await showEstimate();
    }
  } catch (err) {
    setStatus('bench-status', '');
    showError('bench-error', `Benchmark failed. ${explain(err)}`);
  } finally {
    state.busy = null;
    state.benchAbort = null;
    $('bench-run').hidden = false;
    $('bench-stop').hidden = true;
    $('register').disabled = false;
  }
}

export function stopBenchmark() {
  state.benchAbort?.abort();
}
