// Node's SHA-512 for the JS kernel (kernel-js.ts), set by the Node-only modules that run it:
// the pool (pool.node.ts, for the calling thread) and its threads (worker.ts). node:crypto is
// taken from process.getBuiltinModule (Node 20.16+, Bun, Deno) when the first JS kernel hashes,
// so importing tpkit loads nothing more; where that is missing, @noble/hashes stays.

import { useNativeSha512 } from './kernel-js.js';

interface NodeCrypto {
  createHash(name: 'sha512'): { update(data: Uint8Array): { digest(): Uint8Array } };
}

export function useNodeSha512(): void {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => NodeCrypto } }).process?.getBuiltinModule;
  if (typeof getBuiltin !== 'function') return;
  let crypto: NodeCrypto | undefined;
  useNativeSha512((data) => (crypto ??= getBuiltin('node:crypto')).createHash('sha512').update(data).digest());
}
