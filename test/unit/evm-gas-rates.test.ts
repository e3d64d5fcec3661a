// Gas priced by the chain settings as docs/guide/contracts.md states it (the reference's
// generate_block_process:to_gas): current.gas.<CUR> is {"tokens": T, "gas": G} or a number G,
// the unused gas goes back rounded down to whole units, eth_gasPrice is T / G rounded down.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_GAS_RATES, gasFor, gasPrice, gasRates, unitsLeft } from '../../src/node/evm/gas.js';

test('the published rate: SK, one unit buys 1000 gas (the easy-chain genesis), in the object form', () => {
  assert.equal(DEFAULT_GAS_RATES, { SK: { tokens: 1, gas: 1000 } });
  assert.equal(gasRates(DEFAULT_GAS_RATES), new Map([['SK', { tokens: 1n, gas: 1000n }]]));
});

test('rates: positive whole numbers only, in either form; everything else is no rate', () => {
  const rates = gasRates({
    ONE: 1,
    N: 250,
    OBJ: { tokens: 3, gas: 10 },
    MIN: { tokens: 1, gas: 1 },
    ZERO: 0,
    NEG: -5,
    HALF: 1.5,
    BIG: 2 ** 53,
    NOTOKENS: { tokens: 0, gas: 10 },
    NOGAS: { tokens: 3, gas: 0 },
    NEGGAS: { tokens: 3, gas: -1 },
    TEXT: { tokens: '3', gas: 10 },
    MISSING: { gas: 10 },
    NUL: null,
    STR: '100',
  });
  assert.equal(
    rates,
    new Map([
      ['ONE', { tokens: 1n, gas: 1n }],
      ['N', { tokens: 1n, gas: 250n }],
      ['OBJ', { tokens: 3n, gas: 10n }],
      ['MIN', { tokens: 1n, gas: 1n }],
    ]),
  );
});

test('gas bought and units returned, rounded down', () => {
  const rate = { tokens: 3n, gas: 10n };
  assert.is(gasFor(1n, rate), 3n, '10/3 gas');
  assert.is(gasFor(3n, rate), 10n);
  assert.is(gasFor(0n, rate), 0n);
  assert.is(unitsLeft(5n, 6n, rate), 3n, '16 gas bought, 10 left: 3 units');
  assert.is(unitsLeft(5n, 7n, rate), 2n, '9 left: 2.7 units, rounded down');
  assert.is(unitsLeft(5n, 16n, rate), 0n);
  assert.is(unitsLeft(5n, 17n, rate), 0n, 'more used than bought: nothing back');
  assert.is(unitsLeft(7n, 2500n, { tokens: 1n, gas: 1000n }), 4n);
});

test('eth_gasPrice: tokens per gas rounded down, 0 without a rate', () => {
  assert.is(gasPrice(undefined), 0n);
  assert.is(gasPrice({ tokens: 1n, gas: 1000n }), 0n);
  assert.is(gasPrice({ tokens: 7n, gas: 2n }), 3n);
  assert.is(gasPrice({ tokens: 1000n, gas: 1000n }), 1n);
});

test.run();
