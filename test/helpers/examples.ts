// The examples as a wallet developer builds them: the package packed as npm would deliver it
// (`npm pack`), installed with the bundlers pinned in examples/package.json into one project
// in a cache kept across runs (TPKIT_E2E_CACHE, default ~/.cache/tpkit-e2e, a project per
// checkout), so a second run reinstalls only tpkit. Each example's sources are copied in fresh, then built with its
// bundler's own command line. The builds are kept with a stamp of what they were built from
// (the tarball's and the examples' hashes), so the engines' test files build once between them.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXAMPLES = join(ROOT, 'examples');
export const CACHE = process.env.TPKIT_E2E_CACHE ?? join(homedir(), '.cache', 'tpkit-e2e');
/**
 * The installed project: examples/ copied in, node_modules kept between runs. One per checkout:
 * two checkouts testing at once would otherwise rebuild each other's pages under their feet.
 */
export const PROJECT = join(CACHE, `examples-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`);

export interface BuiltPage {
  /** Row name in the matrix. */
  name: string;
  /** The folder to serve, and the page in it. */
  dir: string;
  page: string;
  /** Wall time of the build. */
  buildMs: number;
}

const env = { ...process.env, npm_config_update_notifier: 'false', NEXT_TELEMETRY_DISABLED: '1', PARCEL_WORKERS: '1', BROWSERSLIST_IGNORE_OLD_DATA: '1' };

export function run(command: string, args: string[], cwd: string, timeoutMs = 600_000): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
  } catch (err) {
    const failure = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`.slice(0, 6000), { cause: err });
  }
}

/** What a build or an install leaves in an example: neither copied nor hashed. */
const OUTPUTS = new Set(['node_modules', 'dist', 'dist-split', 'dist-lean', 'out', '.next', '.parcel-cache', 'package-lock.json']);

/** SHA-256 over the examples' sources under `dir` (paths and contents). */
function hashTree(dir: string, hash = createHash('sha256')): ReturnType<typeof createHash> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
    if (OUTPUTS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    hash.update(path.slice(EXAMPLES.length));
    if (entry.isDirectory()) hashTree(path, hash);
    else hash.update(readFileSync(path));
  }
  return hash;
}

const STAMP = join(PROJECT, '.built-from');

/** True when the project's installed tpkit is this checkout's build (its browser files, byte for byte). */
function installedIsCurrent(): boolean {
  const installed = join(PROJECT, 'node_modules', 'tpkit', 'dist', 'browser');
  return ['tpkit.js', 'tpkit-inline.js', 'miner-worker.js'].every((name) => {
    const file = join(installed, name);
    return existsSync(file) && readFileSync(file).equals(readFileSync(join(ROOT, 'dist', 'browser', name)));
  });
}

/**
 * Packs dist/ as published and installs it, with the pinned bundlers, into PROJECT, unless
 * PROJECT already holds builds of this very tarball and these examples (then `fresh` is false
 * and `builds` should not run again).
 */
export function installExamples(): { tarball: string; fresh: boolean; stamp: string } {
  mkdirSync(PROJECT, { recursive: true });
  const packs = join(CACHE, 'pack');
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs, { recursive: true });
  // dist/ is built by `npm test`; pack it without running the build again.
  const name = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packs], ROOT).trim().split('\n').pop()!;
  const tarball = join(packs, name);
  const stamp = hashTree(EXAMPLES, createHash('sha256').update(readFileSync(tarball))).digest('hex');
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stamp && installedIsCurrent()) return { tarball, fresh: false, stamp };
  rmSync(STAMP, { force: true });
  // Sources fresh from the checkout; node_modules and the lockfile stay from the last run.
  for (const entry of readdirSync(EXAMPLES)) {
    if (entry === 'package.json' || OUTPUTS.has(entry)) continue;
    rmSync(join(PROJECT, entry), { recursive: true, force: true });
    cpSync(join(EXAMPLES, entry), join(PROJECT, entry), { recursive: true, filter: (from) => !OUTPUTS.has(from.split(/[\\/]/).pop()!) });
  }
  const manifest = JSON.parse(readFileSync(join(EXAMPLES, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  manifest.dependencies.tpkit = `file:${tarball}`;
  writeFileSync(join(PROJECT, 'package.json'), JSON.stringify(manifest, null, 2));
  // The tarball's contents change from build to build under one version and one path: npm
  // would reinstall the copy its cache holds under the lockfile's integrity, so both go.
  rmSync(join(PROJECT, 'node_modules', 'tpkit'), { recursive: true, force: true });
  const lockfile = join(PROJECT, 'package-lock.json');
  if (existsSync(lockfile)) {
    const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages?: Record<string, unknown> };
    delete lock.packages?.['node_modules/tpkit'];
    writeFileSync(lockfile, JSON.stringify(lock, null, 2));
  }
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], PROJECT);
  if (!installedIsCurrent()) throw new Error(`${PROJECT}/node_modules/tpkit is not the packed build: npm installed a cached copy`);
  return { tarball, fresh: true, stamp };
}

/** Records that every example was built from `stamp`. */
export function markBuilt(stamp: string): void {
  writeFileSync(STAMP, stamp);
}

const bin = (name: string) => join(PROJECT, 'node_modules', '.bin', name);

/** Set while the builds on disk are current: BUILDS then only say where they are. */
let reuse = false;
export function reuseBuilds(current: boolean): void {
  reuse = current;
}

function timed(name: string, dir: string, page: string, build: () => void): BuiltPage {
  const began = performance.now();
  if (!reuse) build();
  return { name, dir, page, buildMs: reuse ? NaN : performance.now() - began };
}

/** Each bundler's build of the wallet page, by its matrix row name. */
export const BUILDS: Record<string, () => BuiltPage> = {
  'esbuild --bundle': () => {
    const dir = join(PROJECT, 'esbuild');
    return timed('esbuild --bundle', dir, 'index.html', () => run(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--outdir=dist', '--log-level=warning'], dir));
  },
  'esbuild --bundle --splitting': () => {
    const dir = join(PROJECT, 'esbuild');
    return timed('esbuild --bundle --splitting', dir, 'split.html', () =>
      run(bin('esbuild'), ['main.js', '--bundle', '--splitting', '--format=esm', '--outdir=dist-split', '--log-level=warning'], dir),
    );
  },
  Rollup: () => {
    const dir = join(PROJECT, 'rollup');
    return timed('Rollup', dir, 'index.html', () => run(bin('rollup'), ['-c', 'rollup.config.mjs', '--silent'], dir));
  },
  'webpack 5': () => {
    const dir = join(PROJECT, 'webpack');
    return timed('webpack 5', dir, 'index.html', () => run(bin('webpack'), ['--config', 'webpack.config.mjs', '--no-stats'], dir));
  },
  Vite: () => {
    const dir = join(PROJECT, 'vite');
    return timed('Vite', join(dir, 'dist'), 'index.html', () => run(bin('vite'), ['build', '--logLevel', 'warn'], dir));
  },
  'Parcel 2': () => {
    const dir = join(PROJECT, 'parcel');
    return timed('Parcel 2', join(dir, 'dist'), 'index.html', () => run(bin('parcel'), ['build', 'index.html', '--dist-dir', 'dist', '--no-cache', '--log-level', 'warn'], dir));
  },
  'Next.js': () => {
    const dir = join(PROJECT, 'next');
    return timed('Next.js', join(dir, 'out'), 'index.html', () => run(bin('next'), ['build'], dir));
  },
};

/** The lean entry through esbuild, which copies no asset: a page whose miner files are missing. Built every time (0.1 s). */
export function buildLeanWithEsbuild(): BuiltPage {
  const dir = join(PROJECT, 'esbuild');
  const began = performance.now();
  run(bin('esbuild'), ['main.js', '--bundle', '--format=esm', '--outdir=dist-lean', '--alias:tpkit/browser=tpkit/browser/lean', '--log-level=warning'], dir);
  return { name: 'esbuild --bundle, tpkit/browser/lean', dir, page: 'lean.html', buildMs: performance.now() - began };
}
