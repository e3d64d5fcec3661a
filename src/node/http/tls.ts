// TLS material for the node: the user's PEM files, or a development certificate generated once
// and kept in the data directory so a browser exception or a pinned CA keeps working across
// restarts.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../../errors.js';
import { generateSelfSignedCert } from './self-signed-cert.js';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the development certificate lives, for the banner; undefined for user files. */
  devCertPath?: string;
}

function read(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ValidationError('CONFIG_INVALID', `${flag}: cannot read ${path}`, { field: flag, details: (cause as Error).message, cause });
  }
}

/** The settings TLS depends on (a NodeConfig fits). */
export interface TlsSettings {
  host: string;
  dataDir: string;
  memory: boolean;
  tls: { cert?: string; key?: string; selfSigned: boolean };
}

export function loadTls(config: TlsSettings): TlsMaterial | undefined {
  if (config.tls.cert !== undefined && config.tls.key !== undefined) {
    return { cert: read(config.tls.cert, '--tls-cert'), key: read(config.tls.key, '--tls-key') };
  }
  if (!config.tls.selfSigned) return undefined;
  const hosts = ['localhost', '127.0.0.1', '::1'];
  if (!hosts.includes(config.host) && config.host !== '0.0.0.0' && config.host !== '::') hosts.push(config.host);
  if (config.memory) return generateSelfSignedCert(hosts);
  const dir = join(config.dataDir, 'tls');
  const certPath = join(dir, 'dev-cert.pem');
  const keyPath = join(dir, 'dev-key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), devCertPath: certPath };
  }
  const generated = generateSelfSignedCert(hosts);
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyPath, generated.key, { mode: 0o600 });
  writeFileSync(certPath, generated.cert);
  return { ...generated, devCertPath: certPath };
}
