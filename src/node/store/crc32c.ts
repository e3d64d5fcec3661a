// CRC-32C (Castagnoli), the checksum LevelDB keeps for every block of its table files, with
// LevelDB's mask over it. Node's zlib has only the IEEE polynomial, so it is computed here,
// eight bytes a step (slicing-by-8) so a store of hundreds of megabytes checks in seconds.

const POLY = 0x82f63b78;
const TABLES: Uint32Array[] = (() => {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    tables[0][n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++) tables[t][n] = (tables[t - 1][n] >>> 8) ^ tables[0][tables[t - 1][n] & 0xff];
  }
  return tables;
})();

/** CRC-32C of `bytes`, continuing from `crc` (the CRC of what came before, 0 at the start). */
export function crc32c(bytes: Uint8Array, crc = 0): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const end8 = bytes.length - 8;
  for (; i <= end8; i += 8) {
    const lo = (c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24))) >>> 0;
    c = t7[lo & 0xff] ^ t6[(lo >>> 8) & 0xff] ^ t5[(lo >>> 16) & 0xff] ^ t4[lo >>> 24] ^ t3[bytes[i + 4]] ^ t2[bytes[i + 5]] ^ t1[bytes[i + 6]] ^ t0[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const MASK_DELTA = 0xa282ead8;

/** LevelDB stores a CRC masked (rotated and offset), so a CRC of data holding CRCs stays sound. */
export function maskCrc(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + MASK_DELTA) >>> 0;
}
