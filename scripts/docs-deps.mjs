#!/usr/bin/env node
// Installs the docs site's tools (docs/package.json: VitePress, typedoc and its TypeScript 5)
// from their lockfile when they are missing or older than it, so that `npm test` and
// `npm run docs` work from a fresh clone after `npm install` alone.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const docs = fileURLToPath(new URL('../docs/', import.meta.url));
const installed = `${docs}node_modules/.package-lock.json`;
const fresh = existsSync(installed) && statSync(installed).mtimeMs >= statSync(`${docs}package-lock.json`).mtimeMs;
if (!fresh) {
  console.log('docs-deps: installing the docs site tools (npm ci --prefix docs)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--prefix', docs, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
