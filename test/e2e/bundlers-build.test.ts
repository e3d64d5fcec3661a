// Each mainstream bundler builds the wallet page (examples/) from the packed package with its
// own command line, no plugin and no copied file. The builds are kept for the engines' files
// that run them (bundlers-<engine>.test.ts), which build only what is missing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILDS, installExamples, markBuilt, reuseBuilds } from '../helpers/examples.js';

let stamp = '';
let setupError: unknown;
const failed: string[] = [];

test.before(() => {
  try {
    const installed = installExamples();
    stamp = installed.stamp;
    // Built here every time, so this file measures and proves the builds.
    reuseBuilds(false);
  } catch (err) {
    setupError = err;
  }
});

for (const [row, build] of Object.entries(BUILDS)) {
  test(`${row} builds the wallet page`, () => {
    if (setupError) throw setupError;
    try {
      const page = build();
      console.log(`  ${row}: ${(page.buildMs / 1000).toFixed(1)} s`);
      assert.ok(page.buildMs > 0);
    } catch (err) {
      failed.push(row);
      throw err;
    }
  });
}

test('the builds are kept for the engines', () => {
  if (setupError) throw setupError;
  assert.equal(failed, []);
  markBuilt(stamp);
});

test.run();
