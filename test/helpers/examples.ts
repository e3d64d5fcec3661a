// The examples as a wallet developer builds them: the package packed as npm would deliver it
// (`npm pack`), installed with the bundlers pinned in examples/package.json into one project
// in a cache shared across runs (TPKIT_E2E_CACHE, default ~/.cache/tpkit-e2e), so a second
// run reinstalls only tpkit. Each example's sources are copied in fresh, then built with its
// bundler's own command line.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const EXAMPLES = join(ROOT, 'examples');
export const CACHE = process.env.TPKIT_E2E_CACHE ?? join(homedir(), '.cache', 'tpkit-e2e');
/** The installed project: examples/ copied in, node_modules kept between runs. */
export const PROJECT = join(CACHE, 'examples');

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
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`.slice(0, 6000));
  }
}

/** Packs dist/ as published and installs it, with the pinned bundlers, into PROJECT. */
export function installExamples(): { tarball: string; installMs: number } {
  const began = performance.now();
  mkdirSync(PROJECT, { recursive: true });
  const packs = join(CACHE, 'pack');
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs, { recursive: true });
  // dist/ is built by `npm test`; pack it without running the build again.
  const name = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packs], ROOT).trim().split('\n').pop()!;
  const tarball = join(packs, name);
  // Sources fresh from the checkout; node_modules and the lockfile stay from the last run.
  for (const entry of readdirSync(EXAMPLES)) {
    if (entry === 'package.json') continue;
    rmSync(join(PROJECT, entry), { recursive: true, force: true });
    cpSync(join(EXAMPLES, entry), join(PROJECT, entry), { recursive: true });
  }
  const manifest = JSON.parse(readFileSync(join(EXAMPLES, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  manifest.dependencies.tpkit = `file:${tarball}`;
  writeFileSync(join(PROJECT, 'package.json'), JSON.stringify(manifest, null, 2));
  // The tarball's contents change every run: npm would keep the old copy under the same version.
  rmSync(join(PROJECT, 'node_modules', 'tpkit'), { recursive: true, force: true });
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], PROJECT);
  return { tarball, installMs: performance.now() - began };
}

const bin = (name: string) => join(PROJECT, 'node_modules', '.bin', name);

function timed(name: string, dir: string, page: string, build: () => void): BuiltPage {
  const began = performance.now();
  build();
  return { name, dir, page, buildMs: performance.now() - began };
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
    return timed('Parcel 2', join(dir, 'dist'), 'index.html', () =>
      run(bin('parcel'), ['build', 'index.html', '--dist-dir', 'dist', '--no-cache', '--log-level', 'warn'], dir),
    );
  },
  'Next.js': () => {
    const dir = join(PROJECT, 'next');
    return timed('Next.js', join(dir, 'out'), 'index.html', () => run(bin('next'), ['build'], dir));
  },
};
