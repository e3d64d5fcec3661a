// SHA-512 of one body under many nonces, in plain JavaScript for the JS kernel (kernel-js.ts):
// 64-bit words as pairs of 32-bit integers (no BigInt, no allocation per nonce), the eight
// working words kept in sixteen locals through the rounds, and every part
// of the hash that a change of the nonce's low half leaves alone computed once: the blocks
// before it (the midstate, as the WASM kernels do in assembly/mine-state.ts), and the first
// rounds of its own block, whose message words come before it. The high half of the nonce
// changes once per 2^32 nonces; that redoes the precomputed part.

/** SHA-512's round constants (FIPS 180-4 §4.2.3), high and low halves. */
const K = [
  0x428a2f98, 0xd728ae22, 0x71374491, 0x23ef65cd, 0xb5c0fbcf, 0xec4d3b2f, 0xe9b5dba5, 0x8189dbbc, 0x3956c25b, 0xf348b538, 0x59f111f1, 0xb605d019, 0x923f82a4, 0xaf194f9b, 0xab1c5ed5, 0xda6d8118,
  0xd807aa98, 0xa3030242, 0x12835b01, 0x45706fbe, 0x243185be, 0x4ee4b28c, 0x550c7dc3, 0xd5ffb4e2, 0x72be5d74, 0xf27b896f, 0x80deb1fe, 0x3b1696b1, 0x9bdc06a7, 0x25c71235, 0xc19bf174, 0xcf692694,
  0xe49b69c1, 0x9ef14ad2, 0xefbe4786, 0x384f25e3, 0x0fc19dc6, 0x8b8cd5b5, 0x240ca1cc, 0x77ac9c65, 0x2de92c6f, 0x592b0275, 0x4a7484aa, 0x6ea6e483, 0x5cb0a9dc, 0xbd41fbd4, 0x76f988da, 0x831153b5,
  0x983e5152, 0xee66dfab, 0xa831c66d, 0x2db43210, 0xb00327c8, 0x98fb213f, 0xbf597fc7, 0xbeef0ee4, 0xc6e00bf3, 0x3da88fc2, 0xd5a79147, 0x930aa725, 0x06ca6351, 0xe003826f, 0x14292967, 0x0a0e6e70,
  0x27b70a85, 0x46d22ffc, 0x2e1b2138, 0x5c26c926, 0x4d2c6dfc, 0x5ac42aed, 0x53380d13, 0x9d95b3df, 0x650a7354, 0x8baf63de, 0x766a0abb, 0x3c77b2a8, 0x81c2c92e, 0x47edaee6, 0x92722c85, 0x1482353b,
  0xa2bfe8a1, 0x4cf10364, 0xa81a664b, 0xbc423001, 0xc24b8b70, 0xd0f89791, 0xc76c51a3, 0x0654be30, 0xd192e819, 0xd6ef5218, 0xd6990624, 0x5565a910, 0xf40e3585, 0x5771202a, 0x106aa070, 0x32bbd1b8,
  0x19a4c116, 0xb8d2d0c8, 0x1e376c08, 0x5141ab53, 0x2748774c, 0xdf8eeb99, 0x34b0bcb5, 0xe19b48a8, 0x391c0cb3, 0xc5c95a63, 0x4ed8aa4a, 0xe3418acb, 0x5b9cca4f, 0x7763e373, 0x682e6ff3, 0xd6b2b8a3,
  0x748f82ee, 0x5defb2fc, 0x78a5636f, 0x43172f60, 0x84c87814, 0xa1f0ab72, 0x8cc70208, 0x1a6439ec, 0x90befffa, 0x23631e28, 0xa4506ceb, 0xde82bde9, 0xbef9a3f7, 0xb2c67915, 0xc67178f2, 0xe372532b,
  0xca273ece, 0xea26619c, 0xd186b8c7, 0x21c0c207, 0xeada7dd6, 0xcde0eb1e, 0xf57d4f7f, 0xee6ed178, 0x06f067aa, 0x72176fba, 0x0a637dc5, 0xa2c898a6, 0x113f9804, 0xbef90dae, 0x1b710b35, 0x131c471b,
  0x28db77f5, 0x23047d84, 0x32caab7b, 0x40c72493, 0x3c9ebe0a, 0x15c9bebc, 0x431d67c4, 0x9c100d4c, 0x4cc5d4be, 0xcb3e42b6, 0x597f299c, 0xfc657e2a, 0x5fcb6fab, 0x3ad6faec, 0x6c44198c, 0x4a475817,
];
const KH = new Int32Array(80);
const KL = new Int32Array(80);
for (let t = 0; t < 80; t++) {
  KH[t] = K[2 * t];
  KL[t] = K[2 * t + 1];
}

/** The initial hash value (FIPS 180-4 §5.3.5), as [high, low] pairs of H0..H7. */
const IV = [
  0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1, 0x510e527f, 0xade682d1, 0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab, 0xfb41bd6b, 0x5be0cd19, 0x137e2179,
];

/** 2^32, and 2^-32 to carry a sum of low halves into the high half (a product by a power of two is exact, and cheaper than a division). */
const TWO32 = 0x100000000;
const INV32 = 2.3283064365386963e-10;

/** Message words 16..79 from 0..15 of one block (wh, wl: 80 entries each). */
function expand(wh: Int32Array, wl: Int32Array): void {
  for (let t = 16; t < 80; t++) {
    // σ0(w[t-15]) = rotr1 ^ rotr8 ^ shr7
    let h = wh[t - 15];
    let l = wl[t - 15];
    const s0h = ((h >>> 1) | (l << 31)) ^ ((h >>> 8) | (l << 24)) ^ (h >>> 7);
    const s0l = ((l >>> 1) | (h << 31)) ^ ((l >>> 8) | (h << 24)) ^ ((l >>> 7) | (h << 25));
    // σ1(w[t-2]) = rotr19 ^ rotr61 ^ shr6
    h = wh[t - 2];
    l = wl[t - 2];
    const s1h = ((h >>> 19) | (l << 13)) ^ ((l >>> 29) | (h << 3)) ^ (h >>> 6);
    const s1l = ((l >>> 19) | (h << 13)) ^ ((h >>> 29) | (l << 3)) ^ ((l >>> 6) | (h << 26));
    const lo = (s0l >>> 0) + (s1l >>> 0) + (wl[t - 7] >>> 0) + (wl[t - 16] >>> 0);
    wh[t] = s0h + s1h + wh[t - 7] + wh[t - 16] + ((lo * INV32) | 0);
    wl[t] = lo | 0;
  }
}

/**
 * Rounds `from`..`to`-1 of one block on the working words in `s` (a..h as [high, low]
 * pairs), in place. The sixteen halves live in locals for the whole loop, which engines
 * keep in registers, where an array read and written per round would not be.
 */
function rounds(s: Int32Array, from: number, to: number, wh: Int32Array, wl: Int32Array): void {
  let ah = s[0],
    al = s[1],
    bh = s[2],
    bl = s[3],
    ch = s[4],
    cl = s[5],
    dh = s[6],
    dl = s[7];
  let eh = s[8],
    el = s[9],
    fh = s[10],
    fl = s[11],
    gh = s[12],
    gl = s[13],
    hh = s[14],
    hl = s[15];
  for (let t = from; t < to; t++) {
    // Σ1(e) = rotr14 ^ rotr18 ^ rotr41
    const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const chh = (eh & fh) ^ (~eh & gh);
    const chl = (el & fl) ^ (~el & gl);
    const t1l = (hl >>> 0) + (S1l >>> 0) + (chl >>> 0) + (KL[t] >>> 0) + (wl[t] >>> 0);
    const t1h = (hh + S1h + chh + KH[t] + wh[t] + ((t1l * INV32) | 0)) | 0;
    // Σ0(a) = rotr28 ^ rotr34 ^ rotr39
    const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    const majh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
    const majl = (al & bl) ^ (al & cl) ^ (bl & cl);
    hh = gh;
    hl = gl;
    gh = fh;
    gl = fl;
    fh = eh;
    fl = el;
    let lo = (dl >>> 0) + (t1l >>> 0);
    eh = (dh + t1h + ((lo * INV32) | 0)) | 0;
    el = lo | 0;
    dh = ch;
    dl = cl;
    ch = bh;
    cl = bl;
    bh = ah;
    bl = al;
    lo = (t1l >>> 0) + (S0l >>> 0) + (majl >>> 0);
    ah = (t1h + S0h + majh + ((lo * INV32) | 0)) | 0;
    al = lo | 0;
  }
  s[0] = ah;
  s[1] = al;
  s[2] = bh;
  s[3] = bl;
  s[4] = ch;
  s[5] = cl;
  s[6] = dh;
  s[7] = dl;
  s[8] = eh;
  s[9] = el;
  s[10] = fh;
  s[11] = fl;
  s[12] = gh;
  s[13] = gl;
  s[14] = hh;
  s[15] = hl;
}

/** into = chain + work, word by word (the feed-forward that ends a block). */
function feedForward(into: Int32Array, chain: Int32Array, work: Int32Array): void {
  for (let i = 0; i < 16; i += 2) {
    const lo = (chain[i + 1] >>> 0) + (work[i + 1] >>> 0);
    into[i] = (chain[i] + work[i] + ((lo * INV32) | 0)) | 0;
    into[i + 1] = lo | 0;
  }
}

/** Leading zero bits of a digest held as 16 32-bit words, counted only as far as `need`. */
function zeroBits(h: Int32Array, need: number): number {
  let bits = 0;
  for (let i = 0; i < 16 && bits < need; i++) {
    const z = Math.clz32(h[i]);
    bits += z;
    if (z < 32) break;
  }
  return bits;
}

/**
 * One body, hashed under nonce after nonce: the nonce is the body's last 8 bytes,
 * big-endian. Holds the padded message and every precomputed part; no allocation after
 * construction.
 */
export class NonceHasher {
  readonly #bytes: Uint8Array;
  readonly #length: number;
  readonly #blocks: number;
  /** Message words of every block, expanded (80 per block), high and low halves. */
  readonly #wh: Int32Array[];
  readonly #wl: Int32Array[];
  /** The block holding the nonce's low half (its first byte), and the first round that reads it. */
  readonly #block: number;
  readonly #firstRound: number;
  /** Blocks after #block whose words hold low-half bytes: re-expanded for each nonce. */
  readonly #lowBlocks: boolean[];
  /** 32-bit word indices (of the whole message) holding the low half's bytes. */
  readonly #lowWords: number[];
  /** Chain value before #block, and the working words after its first #firstRound rounds. */
  readonly #mid = new Int32Array(16);
  readonly #prefix = new Int32Array(16);
  readonly #work = new Int32Array(16);
  readonly #out = new Int32Array(16);
  #high = -1;

  constructor(body: Uint8Array) {
    const length = body.length;
    this.#length = length;
    this.#blocks = Math.ceil((length + 17) / 128);
    const bytes = new Uint8Array(this.#blocks * 128);
    bytes.set(body);
    bytes[length] = 0x80;
    // Length in bits, big-endian in the last 16 bytes (a body is far below 2^53 bits).
    const bits = length * 8;
    const end = bytes.length;
    bytes[end - 1] = bits & 0xff;
    bytes[end - 2] = (bits >>> 8) & 0xff;
    bytes[end - 3] = (bits >>> 16) & 0xff;
    bytes[end - 4] = (bits >>> 24) & 0xff;
    bytes[end - 5] = Math.floor(bits / TWO32) & 0xff;
    bytes[end - 6] = Math.floor(bits / TWO32 / 256) & 0xff;
    this.#bytes = bytes;
    this.#wh = [];
    this.#wl = [];
    for (let b = 0; b < this.#blocks; b++) {
      this.#wh.push(new Int32Array(80));
      this.#wl.push(new Int32Array(80));
    }
    const low = length - 4;
    this.#block = Math.floor(low / 128);
    this.#firstRound = Math.floor((low % 128) / 8);
    this.#lowWords = [];
    for (let word = Math.floor(low / 4); word <= Math.floor((length - 1) / 4); word++) this.#lowWords.push(word);
    this.#lowBlocks = [];
    for (let b = 0; b < this.#blocks; b++) this.#lowBlocks.push(b > this.#block && this.#lowWords.some((word) => Math.floor(word / 32) === b));
    for (let b = 0; b < this.#blocks; b++) this.#loadBlock(b);
  }

  /** Message words 0..15 of block `b` from the bytes, then expanded. */
  #loadBlock(b: number): void {
    for (let word = b * 32; word < b * 32 + 32; word++) this.#loadWord(word);
    expand(this.#wh[b], this.#wl[b]);
  }

  /** One 32-bit word of the message (index over the whole message) from the bytes. */
  #loadWord(word: number): void {
    const x = this.#bytes;
    const at = word * 4;
    const value = (x[at] << 24) | (x[at + 1] << 16) | (x[at + 2] << 8) | x[at + 3];
    const b = word >>> 5;
    const t = (word & 31) >>> 1;
    if ((word & 1) === 0) this.#wh[b][t] = value;
    else this.#wl[b][t] = value;
  }

  /** Sets the nonce's high half and redoes what depends on it: the midstate and the first rounds. */
  #setHigh(high: number): void {
    const at = this.#length - 8;
    const x = this.#bytes;
    x[at] = high >>> 24;
    x[at + 1] = (high >>> 16) & 0xff;
    x[at + 2] = (high >>> 8) & 0xff;
    x[at + 3] = high & 0xff;
    // Every block up to the low half's may hold high-half bytes.
    for (let b = 0; b <= this.#block; b++) this.#loadBlock(b);
    const mid = this.#mid;
    mid.set(IV);
    for (let b = 0; b < this.#block; b++) {
      this.#work.set(mid);
      rounds(this.#work, 0, 80, this.#wh[b], this.#wl[b]);
      feedForward(mid, mid, this.#work);
    }
    // The first rounds of the low half's block read only words before it.
    this.#prefix.set(mid);
    const wh = this.#wh[this.#block];
    const wl = this.#wl[this.#block];
    const first = this.#firstRound;
    rounds(this.#prefix, 0, first, wh, wl);
    this.#high = high;
  }

  /**
   * Leading zero bits of SHA-512(body with nonce high:low), counted up to `need` (a caller
   * comparing with a difficulty needs no more).
   */
  zeroBits(high: number, low: number, need: number): number {
    if (high !== this.#high) this.#setHigh(high);
    const x = this.#bytes;
    const at = this.#length - 4;
    x[at] = low >>> 24;
    x[at + 1] = (low >>> 16) & 0xff;
    x[at + 2] = (low >>> 8) & 0xff;
    x[at + 3] = low & 0xff;
    const words = this.#lowWords;
    for (let i = 0; i < words.length; i++) this.#loadWord(words[i]);
    const work = this.#work;
    const chain = this.#out;
    let b = this.#block;
    expand(this.#wh[b], this.#wl[b]);
    work.set(this.#prefix);
    rounds(work, this.#firstRound, 80, this.#wh[b], this.#wl[b]);
    feedForward(chain, this.#mid, work);
    for (b++; b < this.#blocks; b++) {
      if (this.#lowBlocks[b]) expand(this.#wh[b], this.#wl[b]);
      work.set(chain);
      rounds(work, 0, 80, this.#wh[b], this.#wl[b]);
      feedForward(chain, chain, work);
    }
    return zeroBits(chain, need);
  }

  /** The digest of the body with nonce high:low, as bytes (for tests). */
  digest(high: number, low: number): Uint8Array {
    this.zeroBits(high, low, 0);
    const out = new Uint8Array(64);
    for (let i = 0; i < 16; i++) {
      const v = this.#out[i];
      out[4 * i] = v >>> 24;
      out[4 * i + 1] = (v >>> 16) & 0xff;
      out[4 * i + 2] = (v >>> 8) & 0xff;
      out[4 * i + 3] = v & 0xff;
    }
    return out;
  }
}
