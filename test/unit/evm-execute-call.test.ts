// POST /api/execute/call on its own, no EVM: the request read as the reference node reads it
// (docs/guide/contracts.md), each refusal with its code, field and words, the calldata built
// from a signature, a selector or "0x0", and the answer written from a run's outcome.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, hexToBytes } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { ValidationError } from '../../src/errors.js';
import { evmKey } from '../../src/node/evm/address.js';
import { calldata, executeCallAnswer, parseExecuteCall } from '../../src/node/evm/execute-call.js';
import { emptyChanges } from '../../src/node/evm/state.js';
import type { EvmRun } from '../../src/node/evm/runner.js';

const lib = { keccak256: keccak_256 };
const contractKey = 'cd'.repeat(20);
const to = '0x' + contractKey;
const wallet = evmKey(addressFromText('AA100000001677721780'));
const word = (n: bigint) => n.toString(16).padStart(64, '0');

/** The refusal of a request: code, field, message and details, or "accepted". */
function refusal(body: unknown): { code: string; field?: string; message: string; details?: string } | 'accepted' {
  try {
    parseExecuteCall(body, lib);
    return 'accepted';
  } catch (err) {
    assert.instance(err, ValidationError);
    const e = err as ValidationError;
    return { code: e.code, field: e.field, message: e.message, details: e.details };
  }
}

test('a view without "to" is refused: BAD_REQUEST_PARAM on "to", "missing"', () => {
  for (const body of [{ call: '0x0', args: ['0x'] }, { call: 'totalSupply()' }, { call: '0x0', args: ['0x'], from: to }]) {
    assert.equal(refusal(body), { code: 'BAD_REQUEST_PARAM', field: 'to', message: 'Invalid "to": missing', details: 'missing' }, JSON.stringify(body));
  }
  // "to" present but null or not an address is a malformed address, not a missing one.
  const nul = refusal({ call: '0x0', args: ['0x'], to: null });
  assert.is(nul !== 'accepted' && nul.field, 'to');
  assert.is(nul !== 'accepted' && nul.details, 'expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got null');
});

test('the body and "call": an object, and a string', () => {
  for (const body of [null, undefined, 'x', 5, [], [{ call: '0x0', to }]]) {
    assert.equal(
      refusal(body),
      { code: 'BAD_REQUEST_PARAM', field: 'body', message: 'Invalid "body": expected a JSON object with "call" and "to"', details: 'expected a JSON object with "call" and "to"' },
      String(body),
    );
  }
  for (const call of [undefined, 5, null, ['0x0']]) {
    assert.equal(refusal({ call, args: ['0x'], to }), { code: 'BAD_REQUEST_PARAM', field: 'call', message: 'Invalid "call": expected a string', details: 'expected a string' });
  }
  const badSignature = refusal({ call: '1abc()', to });
  assert.equal(badSignature !== 'accepted' && [badSignature.field, badSignature.details], ['call', 'expected "0x0", a 4-byte selector or "name(type,…)", got "1abc()"']);
  assert.equal(refusal({ call: '0x0', args: '0x', to }), { code: 'BAD_REQUEST_PARAM', field: 'args', message: 'Invalid "args": expected an array', details: 'expected an array' });
});

test('defaults as the reference: caller 0x8000000000000000, value 0, no arguments; gas as much as the view cap allows', () => {
  const parsed = parseExecuteCall({ call: 'totalSupply()', to }, lib);
  assert.is(parsed.caller, '0'.repeat(24) + '8000000000000000');
  assert.is(parsed.to, contractKey);
  assert.is(parsed.gasLimit, 2n ** 64n - 1n, 'the chain lowers it to limits.viewGasCap');
  assert.is(parsed.value, 0n);
  assert.is(bytesToHex(parsed.data), '18160ddd', 'the ERC-20 totalSupply() selector');
  const given = parseExecuteCall({ call: '0x0', args: ['0x01'], to: 'AA100000001677721780', from: '0x' + 'AB'.repeat(20), gas: '0x10', value: '1000' }, lib);
  assert.equal([given.caller, given.to, given.gasLimit, given.value, bytesToHex(given.data)], ['ab'.repeat(20), wallet, 16n, 1000n, '01']);
});

test('gas: 1 to 2^64 - 1 (the chain lowers it to the view cap), a number, a decimal or 0x string, or a boolean', () => {
  const gasOf = (gas: unknown) => {
    const r = refusal({ call: '0x0', args: ['0x'], to, gas });
    if (r !== 'accepted') return `${r.field}: ${r.details}`;
    return parseExecuteCall({ call: '0x0', args: ['0x'], to, gas }, lib).gasLimit;
  };
  assert.is(gasOf(1), 1n);
  assert.is(gasOf(100_000_000), 100_000_000n);
  assert.is(gasOf('100000000'), 100_000_000n);
  assert.is(gasOf('0x5f5e100'), 100_000_000n);
  assert.is(gasOf(true), 1n);
  assert.is(gasOf(100_000_001), 100_000_001n);
  assert.is(gasOf('0xffffffffffffffff'), 2n ** 64n - 1n);
  assert.is(gasOf(0), 'gas: expected 1 to 18446744073709551615');
  assert.is(gasOf(false), 'gas: expected 1 to 18446744073709551615');
  assert.is(gasOf(-1), 'gas: expected 1 to 18446744073709551615');
  assert.is(gasOf('0x10000000000000000'), 'gas: expected 1 to 18446744073709551615');
  assert.is(gasOf(1.5), 'gas: expected an integer (number, decimal or 0x string), got 1.5');
  assert.is(gasOf(2 ** 53), 'gas: expected an integer (number, decimal or 0x string), got 9007199254740992');
  assert.is(gasOf('-5'), 'gas: expected an integer (number, decimal or 0x string), got "-5"');
  assert.is(gasOf('0x'), 'gas: expected an integer (number, decimal or 0x string), got "0x"');
  assert.is(gasOf({}), 'gas: expected an integer (number, decimal or 0x string), got {}');
});

test('value: integers up to 78 decimal or 64 hex digits', () => {
  const valueOf = (value: unknown) => {
    const r = refusal({ call: '0x0', args: ['0x'], to, value });
    return r === 'accepted' ? parseExecuteCall({ call: '0x0', args: ['0x'], to, value }, lib).value : r.details;
  };
  assert.is(valueOf('0x' + 'f'.repeat(64)), (1n << 256n) - 1n);
  assert.is(valueOf('9'.repeat(78)), 10n ** 78n - 1n);
  assert.is(valueOf(7), 7n);
  assert.is(valueOf('0x' + '1'.repeat(65)), `expected an integer (number, decimal or 0x string), got "0x${'1'.repeat(65)}"`);
  // The value shown is cut at 80 characters.
  assert.is(valueOf('9'.repeat(79)), `expected an integer (number, decimal or 0x string), got "${'9'.repeat(79)}`);
});

test('"0x0": one argument, the calldata as is', () => {
  assert.equal(calldata('0x0', ['0xa9059cbb00'], keccak_256), hexToBytes('a9059cbb00'));
  assert.equal(calldata('0x0', ['a9059cbb'], keccak_256), hexToBytes('a9059cbb'), 'without 0x');
  assert.equal(calldata('0x0', ['0x'], keccak_256), new Uint8Array(0));
  for (const args of [[], ['0x01', '0x02'], ['0x123'], [5], ['0xzz']]) {
    assert.throws(
      () => calldata('0x0', args, keccak_256),
      (e: ValidationError) => e.field === 'args' && e.details === 'call "0x0" takes one argument: the calldata, 0x and hex digits',
      JSON.stringify(args),
    );
  }
});

test('a signature: its selector over the canonical types, one word per static argument', () => {
  const bob = '0x' + '0b'.repeat(20);
  const made = calldata('transfer(address,uint256)', [bob, 250], keccak_256);
  assert.is(bytesToHex(made), 'a9059cbb' + word(BigInt(bob)) + word(250n), 'the ERC-20 transfer selector');
  // Parameter names, spaces, a returns part, and uint/int for uint256/int256 change nothing.
  assert.equal(calldata(' transfer ( address to , uint amount ) returns (bool)', [bob, 250], keccak_256), made);
  assert.is(bytesToHex(calldata('balanceOf(address)', ['AA100000001677721780'], keccak_256)), '70a08231' + wallet.padStart(64, '0'));
  assert.equal(calldata('f(int)', [-1], keccak_256).slice(0, 4), calldata('f(int256)', [-1], keccak_256).slice(0, 4));
  // A selector: the same words, each argument read by its form.
  assert.equal(calldata('0xa9059cbb', [bob, '250'], keccak_256), made);
  assert.is(bytesToHex(calldata('0x70a08231', ['AA100000001677721780'], keccak_256)), '70a08231' + wallet.padStart(64, '0'), 'address text is an address');
  assert.is(bytesToHex(calldata('0x12345678', [], keccak_256)), '12345678');
  assert.throws(
    () => calldata('transfer(address,uint256)', [bob], keccak_256),
    (e: ValidationError) => e.field === 'args' && e.details === 'transfer takes 2 arguments, got 1',
  );
  assert.throws(
    () => calldata('totalSupply()', [1], keccak_256),
    (e: ValidationError) => e.field === 'args' && e.details === 'totalSupply takes 0 arguments, got 1',
  );
});

test('every static type of the ABI is taken: uint and int of 8 to 256 bits by 8, bytes1 to bytes32, bool, address; no other size', () => {
  const sizes = Array.from({ length: 32 }, (_, i) => 8 * (i + 1));
  const types = [...sizes.flatMap((n) => [`uint${n}`, `int${n}`]), ...sizes.map((n) => `bytes${n / 8}`), 'bool', 'address'];
  for (const type of types) {
    const value = type.startsWith('bytes') ? '0x' + '01'.repeat(Number(type.slice(5))) : type === 'address' ? '0x' + 'ab'.repeat(20) : 1;
    assert.is(calldata(`f(${type})`, [value], keccak_256).length, 36, type);
  }
  for (const type of ['uint0', 'uint7', 'uint9', 'uint255', 'uint257', 'uint264', 'int4', 'int300', 'bytes0', 'bytes33', 'bytes40', 'bool8']) {
    assert.throws(
      () => calldata(`f(${type})`, [1], keccak_256),
      (e: ValidationError) => e.details === `type ${type} is not static: ABI-encode the call and send it as call "0x0"`,
      type,
    );
  }
});

test("static arguments: integers two's complement in 256 bits, booleans, bytesN left-aligned; the rest refused by position", () => {
  const one = (type: string, value: unknown) => bytesToHex(calldata(`f(${type})`, [value], keccak_256).slice(4));
  assert.is(one('int256', -1), 'f'.repeat(64));
  assert.is(one('int8', -2), 'f'.repeat(63) + 'e');
  assert.is(one('uint256', '0x' + 'f'.repeat(64)), 'f'.repeat(64));
  assert.is(one('uint8', 0), word(0n));
  assert.is(one('bool', true), word(1n));
  assert.is(one('bool', false), word(0n));
  assert.is(one('bytes1', '0xab'), 'ab' + '00'.repeat(31));
  assert.is(one('bytes32', '0x' + '12'.repeat(32)), '12'.repeat(32));
  const refused = (type: string, value: unknown) => {
    try {
      calldata(`f(uint256,${type})`, [1, value], keccak_256);
      return 'accepted';
    } catch (err) {
      return `${(err as ValidationError).field}: ${(err as ValidationError).details}`;
    }
  };
  assert.is(refused('uint256', (10n ** 78n - 1n).toString()), 'args[1]: does not fit in 256 bits');
  assert.is(refused('uint256', (1n << 256n).toString()), 'args[1]: does not fit in 256 bits');
  assert.is(refused('uint256', ((1n << 256n) - 1n).toString()), 'accepted');
  for (const type of ['string', 'bytes', 'uint7', 'uint264', 'bytes0', 'bytes33', 'address[]']) {
    assert.is(refused(type, '0x00'), `args[1]: type ${type} is not static: ABI-encode the call and send it as call "0x0"`, type);
  }
  assert.is(refused('address', 'nope').split(':')[0], 'args[1]');
  assert.is(refused('bytes2', '0xab'), 'args[1]: expected 0x and 4 hex digits for bytes2');
});

const run = (over: Partial<EvmRun>): EvmRun => ({ end: 'return', returnData: new Uint8Array(0), gasUsed: 0n, logs: [], changes: emptyChanges(), ...over });
const errorString = (message: string) => {
  const body = Buffer.from(message);
  return hexToBytes('08c379a0' + word(32n) + word(BigInt(body.length)) + body.toString('hex').padEnd(64, '0'));
};

test('the answer of a returned run: result, ok, bin, gas_used as a number, each event as ["evm", contract, caller, data, topics]', () => {
  const caller = '0'.repeat(24) + '8000000000000000';
  const answer = executeCallAnswer(
    run({
      returnData: hexToBytes('00ff'),
      gasUsed: 21_537n,
      logs: [
        { address: contractKey, topics: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)], data: hexToBytes('0a') },
        { address: 'ef'.repeat(20), topics: [], data: new Uint8Array(0) },
      ],
    }),
    caller,
  );
  assert.equal(answer, {
    result: 'return',
    ok: true,
    bin: '0x00ff',
    gas_used: 21537,
    log: [
      ['evm', to, '0x' + caller, '0x0a', ['0x' + '01'.repeat(32), '0x' + '02'.repeat(32)]],
      ['evm', '0x' + 'ef'.repeat(20), '0x' + caller, '0x', []],
    ],
  });
});

test('the answer of a revert: its data, and signature and decode for Error(string) and Panic(uint256) only', () => {
  const reason = executeCallAnswer(run({ end: 'revert', returnData: errorString('Token: balance too low'), gasUsed: 900n }), wallet);
  assert.equal(reason, {
    result: 'revert',
    ok: true,
    bin: '0x' + bytesToHex(errorString('Token: balance too low')),
    gas_used: 900,
    log: [],
    signature: 'Error(string)',
    decode: 'Token: balance too low',
  });
  const panic = executeCallAnswer(run({ end: 'revert', returnData: hexToBytes('4e487b71' + word(0x12n)) }), wallet);
  assert.equal([panic.signature, panic.decode], ['Panic(uint256)', 'Panic(0x12)']);
  const custom = executeCallAnswer(run({ end: 'revert', returnData: hexToBytes('deadbeef') }), wallet);
  assert.equal(custom, { result: 'revert', ok: true, bin: '0xdeadbeef', gas_used: 0, log: [] }, 'a custom error: data only');
  const bare = executeCallAnswer(run({ end: 'revert' }), wallet);
  assert.equal(bare, { result: 'revert', ok: true, bin: '0x', gas_used: 0, log: [] });
  const failed = executeCallAnswer(run({ end: 'error', error: 'out_of_gas', gasUsed: 5000n }), wallet);
  assert.equal(failed, { result: 'error', ok: true, bin: '0x', gas_used: 5000, log: [], error: 'out_of_gas' });
});

test.run();
