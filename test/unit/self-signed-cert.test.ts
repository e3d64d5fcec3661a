// The development certificate is strict DER whatever its random serial: a serial whose first
// byte is zero once made about one certificate in 256 unreadable ("illegal padding").
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate } from 'node:crypto';
import { generateSelfSignedCert } from '../../src/node/http/self-signed-cert.js';

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

test.run();
