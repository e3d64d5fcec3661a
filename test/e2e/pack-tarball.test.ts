// `npm pack` as a maintainer runs it, in a copy of the checkout: the build happens in
// `prepack`, the tarball's package.json has no `prepare` (npm 11 would list it as an install
// script to approve, and approved it would rebuild without the dev dependencies), the
// checkout's package.json comes back byte for byte, and a project installs the tarball with
// no install-script warning.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'tpkit-pack-'));
const checkout = join(work, 'tpkit');
const env = { ...process.env, npm_config_update_notifier: 'false' };
/** Outputs of a build and local state: what a fresh clone does not have. */
const LEFT_OUT = new Set(['node_modules', 'dist', 'build', '.git', '.tpkit']);

let tarball = '';
let packed: Record<string, any> = {};
const original = readFileSync(join(ROOT, 'package.json'), 'utf8');

test.before(() => {
  cpSync(ROOT, checkout, { recursive: true, filter: (path) => {
    const top = relative(ROOT, path).split(/[\\/]/)[0];
    return !LEFT_OUT.has(top) && !top.endsWith('.tgz');
  } });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: checkout, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop()!;
  tarball = join(work, name);
  packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
});

test.after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball carries the build and no prepare script', () => {
  assert.is(packed.scripts.prepare, undefined);
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const file of ['package/dist/src/index.js', 'package/dist/src/cli/main.js', 'package/dist/browser/tpkit.js', 'package/dist/web/index.html']) assert.ok(files.includes(file), file);
});

test("the checkout's package.json is back byte for byte, with nothing left aside", () => {
  assert.is(readFileSync(join(checkout, 'package.json'), 'utf8'), original);
  assert.not.ok(existsSync(join(checkout, 'package.json.unpacked')));
  assert.ok(readdirSync(work).includes(tarball.split(/[\\/]/).pop()!));
});

test('a project installs the tarball without an install-script warning, and its CLI runs', () => {
  const project = join(work, 'wallet');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'wallet', private: true, type: 'module' }));
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, env, encoding: 'utf8' });
  assert.is(install.status, 0, install.stderr);
  assert.not.match(install.stderr, /install-scripts|prepare/, install.stderr);
  const version = execFileSync(join(project, 'node_modules', '.bin', 'tpkit'), ['--version'], { encoding: 'utf8' });
  assert.is(version.trim(), `tpkit ${packed.version}`);
});

test.run();
