// `tpkit bench`: the first-proof section (fresh processes beside a node:crypto loop on the same
// bodies), throughput after a warm-up with an efficiency that is always a number, the charts,
// and --html. Figures are checked for shape and sign only: their size depends on the machine.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTpkit } from '../helpers/cli-run.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tpkit-bench-'));

test('--json: first proofs per contender, efficiency without a one-thread row, every solve time; --html writes the page', async () => {
  const html = join(dir, 'run.html');
  const { out: stdout } = await runTpkit([
    'bench',
    '--no-baselines',
    '--difficulties',
    '6',
    '--threads',
    '2',
    '--repeats',
    '3',
    '--duration',
    '50',
    '--first-proofs',
    '2',
    '--first-difficulty',
    '8',
    '--json',
    '--html',
    html,
  ]);
  const report = JSON.parse(stdout);
  const first = report.firstProof;
  assert.is(first.difficulty, 8);
  assert.is(first.bodies, 2);
  assert.is(first.bareNode.samplesMs.length, 2);
  const names = first.contenders.map((c: { name: string }) => c.name);
  assert.ok(names[0].includes('tpkit/mine') && names[1].includes("'tpkit'") && names[2].includes("require('tpkit')") && names[3].includes('node:crypto'), names.join(' | '));
  for (const c of first.contenders) {
    assert.is(c.samplesMs.length, 2);
    assert.ok(c.samplesMs.every((ms: number) => ms > 0) && c.medianMs > 0 && c.p90Ms >= c.medianMs, c.name);
    assert.is(typeof c.ratio, 'number');
    assert.is(typeof c.pairedRatio, 'number');
  }
  for (const c of first.contenders.slice(0, 3)) assert.ok(c.importMedianMs > 0 && c.mineMedianMs > 0, c.name);
  assert.is(first.contenders[3].ratio, 1);
  assert.is(first.contenders[3].pairedRatio, 1);
  // What the environment offers the miner, first in the report.
  assert.is(report.support.webAssembly.usable, true);
  assert.is(report.support.expected.difficulty, 8);
  assert.ok(report.support.hashRate > 0);
  // Only two threads asked for: efficiency is still a number, against a one-thread measurement.
  assert.is(report.throughput.length, 1);
  const [t] = report.throughput;
  assert.is(t.threads, 2);
  assert.ok(t.hashRate > 0 && t.windowMs >= 50);
  assert.is(typeof t.efficiency, 'number');
  assert.ok(t.efficiency > 0);
  assert.is(report.rows[0].solveMs.length, 3);
  assert.is(typeof report.rows[0].efficiency, 'number');
  const page = readFileSync(html, 'utf8');
  assert.ok(page.startsWith('<!doctype html>'));
  assert.is(page.match(/<svg /g)?.length, 3, 'first proof, scaling, time to solution');
  assert.ok(page.includes('node:crypto createHash'));
});

test('the terminal output draws the scaling bars and the solve-time boxes beside the expectation', async () => {
  const { out: stdout } = await runTpkit(['bench', '--no-baselines', '--difficulties', '6', '--threads', '1,2', '--repeats', '3', '--duration', '50', '--first-proofs', '0']);
  assert.match(stdout, /Pool scaling/);
  assert.match(stdout, /^ +1 thread +█/m);
  assert.match(stdout, /d6 ×2 measured +[ ─█]*┃/);
  assert.match(stdout, /expected +[ ─█]*┃/);
  assert.not.match(stdout, / 0 ?H\/s/);
});

test('chart bars: any fraction of a cell draws a block, never a stray word', async () => {
  const { renderCharts } = await import('../../src/cli/bench-charts.js');
  const fractions = [0.999, 0.5, 0.0625, 0.01, 1];
  const text = renderCharts({
    firstProof: {
      difficulty: 16,
      bodies: 1,
      bareNode: { samplesMs: [10], medianMs: 10, p90Ms: 10 },
      contenders: fractions.map((f, i) => ({ name: `c${i}`, samplesMs: [f * 100], medianMs: f * 100, p90Ms: 100, ratio: 1, pairedRatio: 1 })),
    },
    throughput: [],
    rows: [],
  } as never);
  assert.not.match(text, /undefined|NaN/);
  assert.is(text.split('\n').filter((line) => /^ +c\d +█/.test(line)).length, 4, text);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
