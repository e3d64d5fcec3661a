// Node's SHA-512 for the JS kernel (kernel-js.ts), set by the Node-only modules that run it:
// the pool (pool.node.ts, for the calling thread) and its threads (worker.ts). node:crypto is
// taken from process.getBuiltinModule (Node 20.16+, Bun, Deno) when the first JS kernel hashes,
// so importing tpkit loads nothing more; where that is missing, sha512-nonce.ts stays.
// Under --jitless this native hash is several times the JS one, which the interpreter runs.

import { leadingZeroBits } from './bits.js';
import { useNativeHashing } from './js-kernel.js';

interface NodeCrypto {
  createHash(name: 'sha512'): { update(data: Uint8Array): { digest(): Uint8Array } };
}

export function useNodeSha512(): void {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => NodeCrypto } }).process?.getBuiltinModule;
  if (typeof getBuiltin !== 'function') return;
  let crypto: NodeCrypto | undefined;
  useNativeHashing((body) => {
    // The body is the kernel's own copy: the nonce is written into its last 8 bytes.
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    const at = body.length - 8;
    return {
      zeroBits(high, low) {
        view.setUint32(at, high);
        view.setUint32(at + 4, low);
        return leadingZeroBits((crypto ??= getBuiltin('node:crypto')).createHash('sha512').update(body).digest());
      },
    };
  });
}
