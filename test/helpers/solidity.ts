// The Solidity contracts of test/contracts, compiled by solc (the npm package, its WASM build)
// for the Shanghai EVM: the official SDK 2.1 runs views in its own @ethereumjs/vm 7, whose
// default fork is Shanghai, and solc's default (Prague) emits opcodes it lacks (MCOPY). Compiling takes seconds on a loaded machine, so the output is
// kept in dist/ by a hash of the sources and the compiler version, and reused while both match.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CACHE = join(ROOT, 'dist', 'solc-cache');
const EVM_VERSION = 'shanghai';

export interface Compiled {
  abi: readonly Record<string, unknown>[];
  /** Creation code, 0x-prefixed hex. */
  bytecode: `0x${string}`;
  /** Runtime code as deployed, 0x-prefixed hex. */
  deployedBytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Compiled['abi']; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

const compiled = new Map<string, Compiled>();

/** Contract `name` of test/contracts/<name>.sol. */
export function contract(name: 'Token' | 'Collectible'): Compiled {
  const hit = compiled.get(name);
  if (hit) return hit;
  const source = readFileSync(join(ROOT, 'test', 'contracts', `${name}.sol`), 'utf8');
  const require = createRequire(import.meta.url);
  const version = (require('solc/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(version + '\0' + EVM_VERSION + '\0' + source)
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(CACHE, `${name}-${key}.json`);
  let out: Compiled;
  try {
    out = JSON.parse(readFileSync(cacheFile, 'utf8')) as Compiled;
  } catch {
    const solc = require('solc') as { compile(input: string): string };
    const input = {
      language: 'Solidity',
      sources: { [`${name}.sol`]: { content: source } },
      settings: { evmVersion: EVM_VERSION, optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
    const c = output.contracts[`${name}.sol`][name];
    out = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(cacheFile, JSON.stringify(out));
  }
  compiled.set(name, out);
  return out;
}
