import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { bytesToBase64, bytesToHex, hexToBytes } from '../../src/bytes.js';
import { generateSecretKey, publicKeyOf } from '../../src/crypto/keys.js';
import { pemToPublicKey, publicKeyToPem, publicKeyToSpki } from '../../src/crypto/pem.js';
import { TpkitError } from '../../src/errors.js';
import { vectors } from '../helpers/vectors.js';

function throwsCode(fn: () => unknown, code: string, label = '') {
  try {
    fn();
  } catch (error) {
    assert.instance(error, TpkitError, label);
    assert.is((error as TpkitError).code, code, label);
    return;
  }
  assert.unreachable(`expected ${code} ${label}`);
}

const wrap = (body: string) => `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----`;
const pemBody = (pem: string) => pem.split('\n').slice(1, -1).join('');

test('published PEM: parses to its key; ours has the same bytes in 64-char lines', () => {
  const key = hexToBytes(vectors.pem.public_key);
  assert.is(bytesToHex(pemToPublicKey(vectors.pem.pem), true), vectors.pem.public_key.toUpperCase());
  const ours = publicKeyToPem(key);
  assert.is(pemBody(ours), pemBody(vectors.pem.pem));
  const lines = ours.split('\n');
  assert.is(lines[0], '-----BEGIN PUBLIC KEY-----');
  assert.is(lines[lines.length - 1], '-----END PUBLIC KEY-----');
  assert.equal(
    lines.slice(1, -1).map((l) => l.length),
    [64, 12],
  );
  assert.not.ok(ours.includes('\r'));
});

test('the 23-byte SPKI header is the one the spec and the reference node use', () => {
  const key = hexToBytes(vectors.pem.public_key);
  assert.is(bytesToHex(publicKeyToSpki(key)), '3036301006072a8648ce3d020106052b8104000a032200' + bytesToHex(key));
});

test('random keys round-trip; node:crypto reads our PEM as the same point', () => {
  for (let i = 0; i < 30; i++) {
    const key = publicKeyOf(generateSecretKey());
    const pem = publicKeyToPem(key);
    assert.equal(pemToPublicKey(pem), key);
    const nodeKey = createPublicKey(pem);
    assert.is(nodeKey.asymmetricKeyType, 'ec');
    assert.is(nodeKey.asymmetricKeyDetails?.namedCurve, 'secp256k1');
    const jwk = nodeKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    assert.equal(pemToPublicKey(publicKeyToPem(new Uint8Array(point))), key, 'uncompressed input compresses');
    // node's own (uncompressed) SPKI export parses to the same 33 bytes
    const nodePem = nodeKey.export({ format: 'pem', type: 'spki' }).toString();
    assert.equal(pemToPublicKey(nodePem), key);
  }
});

test('one-line, multi-line, CRLF and surrounding whitespace all parse', () => {
  const key = publicKeyOf(generateSecretKey());
  const ours = publicKeyToPem(key);
  const body = pemBody(ours);
  const variants = [wrap(body), ours.replace(/\n/g, '\r\n'), `\n  ${ours}\n\n`, wrap(body.match(/.{1,16}/g)!.join('\n')), ours + '\r\n'];
  for (const v of variants) assert.equal(pemToPublicKey(v), key, JSON.stringify(v));
});

test('garbage, other labels, other curves, encrypted and truncated PEM are PEM_INVALID', () => {
  const key = publicKeyOf(generateSecretKey());
  const ours = publicKeyToPem(key);
  const body = pemBody(ours);
  const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
  const offCurve = hexToBytes('3036301006072a8648ce3d020106052b8104000a032200' + '02' + '00'.repeat(31) + '05');
  const cases: [string, string][] = [
    ['', 'empty'],
    ['hello', 'garbage'],
    [body, 'body only'],
    [ours.replace(/PUBLIC KEY/g, 'EC PRIVATE KEY'), 'other label'],
    [ours.replace('-----END PUBLIC KEY-----', ''), 'no END line'],
    [ours.replace('-----END PUBLIC KEY-----', 'A'.repeat('-----END PUBLIC KEY-----'.length)), 'END line replaced by as many base64 characters'],
    ['junk\n' + ours, 'text before'],
    [ours + '\njunk', 'text after'],
    [wrap(body.slice(0, -4)), 'truncated'],
    [wrap(body.slice(0, -1) + '=='), 'bad base64 padding'],
    [wrap(body.slice(0, -2)), 'one byte short'],
    [wrap(body.replace(/.$/, '*')), 'bad character'],
    [wrap('Proc-Type: 4,ENCRYPTED\n' + body), 'encrypted header'],
    [wrap(bytesToBase64(offCurve)), 'point not on the curve'],
    [wrap(bytesToBase64(hexToBytes('3036301006072a8648ce3d020106052b81040022032200' + bytesToHex(key)))), 'wrong curve OID'],
    [p256, 'P-256 key'],
    [ed, 'Ed25519 key'],
    [ours + '\n' + ours, 'two keys'],
  ];
  for (const [text, label] of cases) throwsCode(() => pemToPublicKey(text), 'PEM_INVALID', label);
});

test.run();
