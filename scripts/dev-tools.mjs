#!/usr/bin/env node
// Runs a development tool kept apart from the package in tools/lint (ESLint with
// typescript-eslint, Prettier), installing it from its own lockfile the first time.
//
//   node scripts/dev-tools.mjs eslint|prettier [args...]
//
// They live apart because typescript-eslint reads TypeScript's JavaScript API, which the
// project's TypeScript 7 compiler does not offer: tools/lint has its own TypeScript 5.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './test-file.mjs';

const [tool, ...args] = process.argv.slice(2);
const TOOLS = join(ROOT, 'tools', 'lint');
const known = ['eslint', 'prettier'];
if (!known.includes(tool)) {
  console.error(`dev-tools: expected one of ${known.join(', ')}, got ${tool ?? 'nothing'}`);
  process.exit(2);
}
const bin = join(TOOLS, 'node_modules', '.bin', tool);
if (!existsSync(bin)) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: TOOLS, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const run = spawnSync(bin, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(run.status ?? 1);
