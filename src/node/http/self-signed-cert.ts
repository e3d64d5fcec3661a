// A self-signed development certificate for `--tls-self-signed`. node:crypto makes keys and
// signatures but no X.509, so this file writes the few DER structures a certificate needs
// (RFC 5280): a P-256 key, ecdsa-with-SHA256, subject = issuer = CN, and subjectAltName
// entries for the host names and IP addresses a browser or client will check. No dependency,
// no openssl binary.

import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

function derLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(content);
  return Buffer.concat([Uint8Array.of(tag), derLength(body.length), body]);
}

const sequence = (...items: Uint8Array[]) => tlv(0x30, ...items);
const set = (...items: Uint8Array[]) => tlv(0x31, ...items);

function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const out = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Uint8Array.from(out));
}

/** DER wants the shortest form: no leading zero byte unless the next byte's high bit needs it. */
function positiveInteger(bytes: Uint8Array): Uint8Array {
  let first = 0;
  while (first < bytes.length - 1 && bytes[first] === 0) first++;
  const value = bytes.subarray(first);
  return tlv(0x02, value[0] & 0x80 ? Buffer.concat([Uint8Array.of(0), value]) : value);
}

function time(date: Date): Uint8Array {
  // UTCTime covers 1950-2049; GeneralizedTime after that, as RFC 5280 requires.
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii')) : tlv(0x18, Buffer.from(iso, 'ascii'));
}

function name(commonName: string): Uint8Array {
  return sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

function ipBytes(ip: string): Uint8Array {
  if (isIP(ip) === 4) return Uint8Array.from(ip.split('.').map(Number));
  // IPv6: expand "::" and write eight 16-bit groups.
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

export interface DevCertificate {
  cert: string;
  key: string;
}

export function generateSelfSignedCert(hosts: readonly string[] = ['localhost', '127.0.0.1', '::1'], days = 365): DevCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const now = Date.now();
  const altNames = hosts.map((host) => (isIP(host) ? tlv(0x87, ipBytes(host)) : tlv(0x82, Buffer.from(host, 'ascii'))));
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const subject = name('tpkit local node (development)');
  const tbs = sequence(
    tlv(0xa0, positiveInteger(Uint8Array.of(2))), // v3
    positiveInteger(serial),
    ecdsaWithSha256,
    subject,
    sequence(time(new Date(now - 60_000)), time(new Date(now + days * 86_400_000))),
    subject,
    spki,
    tlv(
      0xa3,
      sequence(
        sequence(oid('2.5.29.17'), tlv(0x04, sequence(...altNames))),
        sequence(oid('2.5.29.19'), tlv(0x04, sequence())), // basicConstraints: not a CA
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Uint8Array.of(0), signature));
  const base64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
