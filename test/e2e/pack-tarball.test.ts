// `npm pack` as a maintainer runs it, in a copy of the checkout: the build happens in
// `prepack`, the tarball's package.json has no `prepare` (npm 11 would list it as an install
// script to approve, and approved it would rebuild without the dev dependencies), the
// checkout's package.json comes back byte for byte, and a project installs the tarball with
// no install-script warning. The tarball is what a wallet is glad to install: no source
// maps, the browser bundle once (dist/web's page imports dist/browser, not a copy), at most
// 4 MiB installed, and publint and arethetypeswrong find nothing in it for any entry, the
// node10 resolution of TypeScript's old `moduleResolution: node` included.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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
  cpSync(ROOT, checkout, {
    recursive: true,
    filter: (path) => {
      const top = relative(ROOT, path).split(/[\\/]/)[0];
      return !LEFT_OUT.has(top) && !top.endsWith('.tgz');
    },
  });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: checkout, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    .trim()
    .split('\n')
    .pop()!;
  tarball = join(work, name);
  packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
});

/** Bytes of every file under `dir` (their sizes, not the blocks a file system gives them). */
function treeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? treeBytes(path) : statSync(path).size;
  }
  return bytes;
}

/** Runs a dev tool of the checkout's node_modules/.bin; its output when it fails. */
function devTool(name: string, args: string[]): { status: number | null; output: string } {
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', name), args, { cwd: work, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' }, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

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

test('the tarball ships no source map and the browser bundle once', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
  assert.equal(
    files.filter((file) => file.endsWith('.map')),
    [],
  );
  assert.equal(
    files.filter((file) => file.startsWith('package/dist/web/browser/')),
    [],
  );
  const script = execFileSync('tar', ['-xzOf', tarball, 'package/dist/browser/tpkit.js'], { encoding: 'utf8' });
  assert.not.match(script, /sourceMappingURL/);
});

test('the installed package is at most 4 MiB', () => {
  const installed = join(work, 'wallet', 'node_modules', 'tpkit');
  const bytes = treeBytes(installed);
  assert.ok(bytes <= 4 * 1024 * 1024, `node_modules/tpkit holds ${(bytes / 1024 / 1024).toFixed(2)} MiB`);
});

test('publint finds no warning or error in the tarball', () => {
  const { status, output } = devTool('publint', ['--strict', tarball]);
  assert.is(status, 0, output);
  // Its one suggestion, "sideEffects": false, is not taken: some modules set up their
  // dependencies at load (the secp256k1 hashes), which a bundler told so would drop.
  assert.not.match(output, /warning|error/i, output);
});

test('arethetypeswrong resolves every entry, node10 included', () => {
  // The package is ES modules: a require() from CommonJS (node16-cjs) needs import(), as expected; node10 is checked.
  const { status, output } = devTool('attw', ['--ignore-rules', 'cjs-resolves-to-esm', '--format', 'table-flipped', '--no-emoji', '--no-color', tarball]);
  assert.is(status, 0, output);
  assert.match(output, /node10/);
  assert.not.match(output, /ignored/, output);
  for (const entry of Object.keys(packed.exports)) assert.ok(output.includes(`"${entry === '.' ? 'tpkit' : `tpkit/${entry.slice(2)}`}"`), `${entry} not checked:\n${output}`);
});

test.run();
