// Binary SHA-256 Merkle root for block contents. Leaves and inner nodes are domain-separated
// (0x00 / 0x01 prefix) so a leaf can never be passed off as an inner node; an odd node is
// carried up unchanged; an empty list has the all-zero root.

import { createHash } from 'node:crypto';

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

export const EMPTY_ROOT = new Uint8Array(32);

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return h.digest();
}

export function merkleLeaf(data: Uint8Array): Uint8Array {
  return sha256(LEAF, data);
}

export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_ROOT;
  let level = leaves.map(merkleLeaf);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? sha256(NODE, level[i], level[i + 1]) : level[i]);
    }
    level = next;
  }
  return level[0];
}
