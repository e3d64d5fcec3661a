// Addresses as the EVM side reads them (address.ts): 0x and 40 hex digits, 0x and 16 hex digits
// or ThePower text for a wallet, which is the same number in 20 bytes; every refusal names its
// field and says why.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../src/bytes.js';
import { addressFromText } from '../../src/codec/address.js';
import { ValidationError } from '../../src/errors.js';
import { EVM_ADDRESS_LENGTH, evmKey, parseEvmAddress, powerAddress } from '../../src/node/evm/address.js';

const text = 'AA100000001677721780';
const bytes = addressFromText(text);
const key = '0'.repeat(24) + bytesToHex(bytes);

test('an EVM address is 20 bytes; a wallet is twelve zero bytes and its 8', () => {
  assert.is(EVM_ADDRESS_LENGTH, 20);
  assert.is(evmKey(bytes), key);
  assert.is(evmKey(bytes).length, 2 * EVM_ADDRESS_LENGTH);
  assert.equal(powerAddress(key), bytes);
  assert.is(powerAddress('0'.repeat(24) + 'ff'.repeat(8)), undefined, 'twelve zero bytes, then no valid address');
  assert.is(powerAddress('01' + key.slice(2)), undefined, 'not twelve zero bytes');
});

test('the forms accepted, each to the same key', () => {
  for (const form of [text, '0x' + bytesToHex(bytes), '0X' + bytesToHex(bytes).toUpperCase(), '0x' + key, '0X' + key, key, key.toUpperCase()]) {
    assert.is(parseEvmAddress(form, 'to'), key, form);
  }
  assert.is(parseEvmAddress('0x' + 'AB'.repeat(20), 'to'), 'ab'.repeat(20));
});

test('refusals: BAD_REQUEST_PARAM on the field, with the reason', () => {
  const why = (input: unknown) => {
    try {
      parseEvmAddress(input, 'from');
      return 'accepted';
    } catch (err) {
      assert.instance(err, ValidationError);
      const e = err as ValidationError;
      assert.is(e.code, 'BAD_REQUEST_PARAM');
      assert.is(e.field, 'from');
      assert.ok(e.message.startsWith('Invalid "from": '), e.message);
      return e.details;
    }
  };
  const expected = (got: string) => `expected 0x and 40 hex digits, 0x and 16 hex digits, or a ThePower address, got ${got}`;
  assert.is(why(42), expected('42'));
  assert.is(why(undefined), expected('undefined'));
  assert.is(why('0x1234'), expected('"0x1234"'));
  assert.is(why('0x' + 'a'.repeat(39)), expected(`"0x${'a'.repeat(39)}"`));
  assert.is(why('0x' + 'a'.repeat(41)), expected(`"0x${'a'.repeat(41)}"`));
  assert.is(why('0x' + 'g'.repeat(40)), expected(`"0x${'g'.repeat(40)}"`));
  // Sixteen digits or text that are no address: the address reader's own reason.
  const readerSays = (input: string) => {
    try {
      addressFromText(input);
    } catch (err) {
      return (err as ValidationError).details ?? (err as Error).message;
    }
    return 'accepted';
  };
  for (const input of ['0x' + 'f'.repeat(16), 'AA100000001677721781', 'x'.repeat(200)]) {
    assert.is.not(readerSays(input), 'accepted', input);
    assert.is(why(input), readerSays(input), input);
  }
});

test.run();
