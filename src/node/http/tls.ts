// TLS material for the node: the user's PEM files, or a development certificate generated once
// and kept in the data directory so a browser exception or a pinned CA keeps working across
// restarts.

import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/** Writes `text` to a temporary file, flushes it, and renames it over `path`. */
function writeAtomically(path: string, text: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
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
  // Each file appears whole or not at all: a full disk leaves no empty key behind.
  writeAtomically(keyPath, generated.key, 0o600);
  writeAtomically(certPath, generated.cert, 0o644);
  return { ...generated, devCertPath: certPath };
}
