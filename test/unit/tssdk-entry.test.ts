// tpkit/tssdk stays lean and keeps the SDK out: from its entry only the miner, the register
// encoder, the signer and WIF decoding are reached (no client, node or CLI), the SDK is no
// dependency of the package, and the browser build imports nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Every module the entry reaches through static imports (relative ones followed). */
function reachedFrom(entry: URL): string[] {
  const seen = new Set<string>();
  const visit = (url: URL) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    const source = readFileSync(fileURLToPath(url), 'utf8');
    for (const [, spec] of source.matchAll(/^(?:import|export)\s(?:[^'";]*?from\s+)?'([^']+)'/gm)) {
      if (spec.startsWith('.')) visit(new URL(spec, url));
      else seen.add(spec);
    }
  };
  visit(entry);
  return [...seen];
}

test('tpkit/tssdk reaches the miner and the signer, not the client, the node or the CLI', () => {
  const reached = reachedFrom(new URL('../../src/tssdk.js', import.meta.url));
  for (const needed of ['/pow/mine-register.js', '/crypto/sign-tx.js', '/keys/wif.js']) {
    assert.ok(
      reached.some((name) => name.endsWith(needed)),
      `${needed} reached`,
    );
  }
  for (const heavy of ['/client/', '/node/', '/cli/', '/keys/mnemonic', '@thepowereco', 'lossless-json', '@scure/bip']) {
    assert.equal(
      reached.filter((name) => name.includes(heavy)),
      [],
      `${heavy} is not reached`,
    );
  }
});

test('the SDK is not a dependency of tpkit; the export has a Node and a browser build', () => {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'));
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    assert.is(pkg[field]?.['@thepowereco/tssdk'], undefined, `not in ${field}`);
  }
  assert.equal(pkg.exports['./tssdk'], { types: './dist/src/tssdk.d.ts', browser: './dist/src/tssdk-browser.js', default: './dist/src/tssdk.js' });
  const browser = readFileSync(fileURLToPath(new URL('../../src/tssdk-browser.js', import.meta.url)), 'utf8');
  assert.not.match(browser, /(?:^|[;}])\s*import\s*[{*"']/m, 'the browser build imports nothing');
  assert.match(browser, /registerCertainChain/);
});

test.run();
