// The development certificate is strict DER whatever its random serial: a serial whose first
// byte is zero once made about one certificate in 256 unreadable ("illegal padding"). Its end
// date is read back as written on both sides of 2050, where UTCTime gives way to GeneralizedTime.
// Written to a data dir, it leaves no file descriptor open.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSelfSignedCert } from '../../src/node/http/self-signed-cert.js';
import { loadTls } from '../../src/node/http/tls.js';

test('2,000 generated certificates all parse, with a positive serial in its shortest form', () => {
  const refused: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const { cert } = generateSelfSignedCert();
    try {
      const x509 = new X509Certificate(cert);
      // OpenSSL prints the serial in hex without a sign: a DER leading zero is not part of it.
      assert.ok(/^[0-9A-F]+$/.test(x509.serialNumber) && !x509.serialNumber.startsWith('00'), x509.serialNumber);
    } catch (err) {
      refused.push(err instanceof Error ? err.message : String(err));
    }
  }
  assert.equal(refused, []);
});

test('an end date in 2049, 2050 and 2051 reads back as that year (UTCTime until 2049, GeneralizedTime from 2050)', () => {
  for (const year of [2049, 2050, 2051]) {
    const days = Math.ceil((Date.UTC(year, 5, 1) - Date.now()) / 86_400_000);
    const validTo = new X509Certificate(generateSelfSignedCert(['localhost'], days).cert).validTo;
    assert.match(validTo, new RegExp(` ${year} GMT$`), `${days} days: ${validTo}`);
  }
});

test('writing the certificate and key to a data dir leaves no file descriptor open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tpkit-tls-'));
  try {
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    const tls = loadTls({ host: '127.0.0.1', dataDir: dir, memory: false, tls: { selfSigned: true } });
    assert.ok(tls?.devCertPath, 'written to the data dir');
    assert.is(open(), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('by default: localhost, 127.0.0.1 and ::1, the node as subject and issuer, not a CA, signed by its own P-256 key', () => {
  const { cert, key } = generateSelfSignedCert();
  const x509 = new X509Certificate(cert);
  assert.is(x509.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  assert.is(x509.subject, 'CN=tpkit local node (development)');
  assert.is(x509.issuer, x509.subject);
  assert.is(x509.ca, false);
  assert.equal(x509.publicKey.asymmetricKeyDetails, { namedCurve: 'prime256v1' });
  assert.ok(x509.verify(x509.publicKey), 'the signature checks against its own key (ecdsa-with-SHA256)');
  assert.ok(x509.checkPrivateKey(createPrivateKey(key)));
  assert.ok(x509.checkHost('localhost'));
  assert.ok(x509.checkIP('::1') && x509.checkIP('127.0.0.1'));
  // RFC 5280 4.1.2.1: with extensions the version is v3, the INTEGER 2 under [0], first in tbsCertificate.
  const der = x509.raw;
  assert.equal([der[0], der[1], der[4], der[5]], [0x30, 0x82, 0x30, 0x82], 'certificate and tbsCertificate with two-byte lengths');
  assert.equal([...der.subarray(8, 13)], [0xa0, 0x03, 0x02, 0x01, 0x02]);
});

test('IPv6 addresses with "::" anywhere are written as their sixteen bytes', () => {
  const x509 = new X509Certificate(generateSelfSignedCert(['fe80::1:2', '2001:db8::', '1:2:3:4:5:6:7:ff', '::', '10.0.0.255']).cert);
  assert.is(x509.subjectAltName, 'IP Address:FE80:0:0:0:0:0:1:2, IP Address:2001:DB8:0:0:0:0:0:0, IP Address:1:2:3:4:5:6:7:FF, IP Address:0:0:0:0:0:0:0:0, IP Address:10.0.0.255');
});

test('DER lengths at the short/long boundary: alt names of 127 and 128 bytes', () => {
  for (const length of [125, 126]) {
    // each DNS entry is 2 bytes of tag and length before the name
    const host = `${'a'.repeat(62)}.${'b'.repeat(length - 63)}`;
    const x509 = new X509Certificate(generateSelfSignedCert([host]).cert);
    assert.is(x509.subjectAltName, `DNS:${host}`, `${length + 2} bytes`);
  }
});

test('valid from a minute before it was made for `days` days (365 by default), to the second', () => {
  for (const days of [undefined, 10_000]) {
    const before = Date.now();
    const x509 = new X509Certificate(generateSelfSignedCert(['localhost'], days).cert);
    const after = Date.now();
    const span = (days ?? 365) * 86_400_000;
    const from = Date.parse(x509.validFrom);
    const to = Date.parse(x509.validTo);
    assert.ok(from >= before - 61_000 && from <= after - 60_000, `${days}: from ${x509.validFrom}`);
    assert.ok(to >= before + span - 1_000 && to <= after + span, `${days}: to ${x509.validTo}`);
  }
});

test('made at a whole second: valid from exactly 60 s before, to exactly `days` days after', () => {
  // The clock is fixed at a second boundary, where the certificate's one-second precision
  // shows a start or an end moved by a single millisecond.
  const realNow = Date.now;
  const at = Date.UTC(2030, 0, 2, 3, 4, 5);
  Date.now = () => at;
  try {
    const x509 = new X509Certificate(generateSelfSignedCert(['localhost'], 30).cert);
    assert.is(Date.parse(x509.validFrom), at - 60_000);
    assert.is(Date.parse(x509.validTo), at + 30 * 86_400_000);
  } finally {
    Date.now = realNow;
  }
});

test('the serial is 16 random bytes kept positive, and the PEM has 64-character lines', () => {
  const serials = Array.from({ length: 200 }, () => new X509Certificate(generateSelfSignedCert().cert).serialNumber);
  assert.ok(
    serials.every((s) => s.length <= 32 && (s.length < 32 || /^[0-7]/.test(s))),
    serials.find((s) => s.length > 32 || (s.length === 32 && !/^[0-7]/.test(s))),
  );
  assert.ok(
    serials.some((s) => s.length === 32),
    'most serials use all 16 bytes',
  );
  assert.is(new Set(serials).size, 200);
  const lines = generateSelfSignedCert().cert.trimEnd().split('\n');
  assert.is(lines[0], '-----BEGIN CERTIFICATE-----');
  assert.is(lines.at(-1), '-----END CERTIFICATE-----');
  const body = lines.slice(1, -1);
  assert.ok(body.slice(0, -1).every((l) => l.length === 64) && body.at(-1)!.length <= 64, body.map((l) => l.length).join(','));
});

test.run();
