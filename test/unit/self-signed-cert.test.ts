// The development certificate is strict DER whatever its random serial: a serial whose first
// byte is zero once made about one certificate in 256 unreadable ("illegal padding"). Its end
// date is read back as written on both sides of 2050, where UTCTime gives way to GeneralizedTime.
// Written to a data dir, it leaves no file descriptor open.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate } from 'node:crypto';
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

test.run();
