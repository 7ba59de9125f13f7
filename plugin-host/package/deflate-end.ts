// Finds where a raw deflate stream ends. Node 20's DecompressionStream silently ignores bytes after the final
// block while Chromium's rejects them, so a package hiding bytes inside an entry's compressed data would get two
// verdicts; we decode the block structure ourselves (Huffman symbols only, no output) and refuse such bytes in
// both. Runs after the native inflate succeeded within its cap, so the work is bounded by that cap.
// Decoding is table-driven (codes up to FAST_BITS in one lookup), as in zlib's inflate_fast.

const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const FAST_BITS = 10;
const FAST_MASK = (1 << FAST_BITS) - 1;

export class DeflateFormatError extends Error {}

interface Huffman {
  counts: Uint16Array;
  symbols: Uint16Array;
  /** Indexed by the next FAST_BITS input bits: (symbol << 4) | code length, or 0 for longer codes. */
  fast: Int32Array;
}

function build(lengths: ArrayLike<number>, n: number): Huffman {
  const counts = new Uint16Array(16);
  for (let i = 0; i < n; i++) counts[lengths[i]!]!++;
  counts[0] = 0;
  const offsets = new Uint16Array(16);
  for (let i = 1; i < 16; i++) offsets[i] = offsets[i - 1]! + counts[i - 1]!;
  const symbols = new Uint16Array(n);
  for (let i = 0; i < n; i++) if (lengths[i]) symbols[offsets[lengths[i]!]!++] = i;

  // Canonical codes (RFC 1951 §3.2.2), stored bit-reversed because deflate sends Huffman codes MSB first.
  const fast = new Int32Array(1 << FAST_BITS);
  const next = new Uint16Array(16);
  for (let len = 1, code = 0; len < 16; len++) {
    next[len] = code;
    code = (code + counts[len]!) << 1;
  }
  for (let sym = 0; sym < n; sym++) {
    const len = lengths[sym]!;
    if (len === 0 || len > FAST_BITS) continue;
    const code = next[len]!++;
    let rev = 0;
    for (let i = 0; i < len; i++) rev |= ((code >>> i) & 1) << (len - 1 - i);
    for (let i = rev; i < 1 << FAST_BITS; i += 1 << len) fast[i] = (sym << 4) | len;
  }
  return { counts, symbols, fast };
}

const fixedLit = (() => {
  const l = new Uint8Array(288);
  l.fill(8, 0, 144);
  l.fill(9, 144, 256);
  l.fill(7, 256, 280);
  l.fill(8, 280, 288);
  return build(l, 288);
})();
const fixedDist = build(new Uint8Array(30).fill(5), 30);

class Bits {
  pos = 0;
  private buf = 0;
  private count = 0;
  constructor(private readonly data: Uint8Array) {}

  /** Loads whole bytes until at least `n` (≤ 24) bits are buffered, or the input ends. */
  private fill(n: number): void {
    while (this.count < n && this.pos < this.data.length) {
      this.buf |= this.data[this.pos++]! << this.count;
      this.count += 8;
    }
  }

  bits(n: number): number {
    if (n === 0) return 0;
    this.fill(n);
    if (this.count < n) throw new DeflateFormatError('deflate data ends early');
    const v = this.buf & ((1 << n) - 1);
    this.buf >>>= n;
    this.count -= n;
    return v;
  }

  /** Drops the bits left in the current byte and hands back whole buffered bytes. */
  alignToByte(): void {
    this.pos -= this.count >>> 3;
    this.buf = 0;
    this.count = 0;
  }

  decode(h: Huffman): number {
    this.fill(FAST_BITS);
    const e = h.fast[this.buf & FAST_MASK]!;
    const len = e & 15;
    if (e !== 0 && len <= this.count) {
      this.buf >>>= len;
      this.count -= len;
      return e >>> 4;
    }
    // Codes longer than FAST_BITS (or the last bits of the input): walk the canonical code bit by bit.
    let code = 0;
    let first = 0;
    let index = 0;
    for (let l = 1; l < 16; l++) {
      code |= this.bits(1);
      const count = h.counts[l]!;
      if (code - first < count) return h.symbols[index + code - first]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new DeflateFormatError('invalid Huffman code');
  }

  /** Byte offset just past the last consumed bit. */
  get end(): number {
    return this.pos - (this.count >>> 3);
  }
}

/** The byte offset just after the final deflate block of `data`. */
export function deflateEnd(data: Uint8Array): number {
  const r = new Bits(data);
  for (;;) {
    const final = r.bits(1);
    const type = r.bits(2);
    if (type === 0) {
      r.alignToByte();
      if (r.pos + 4 > data.length) throw new DeflateFormatError('stored block header ends early');
      const len = data[r.pos]! | (data[r.pos + 1]! << 8);
      const nlen = data[r.pos + 2]! | (data[r.pos + 3]! << 8);
      if ((len ^ 0xffff) !== nlen) throw new DeflateFormatError('stored block length check fails');
      r.pos += 4 + len;
      if (r.pos > data.length) throw new DeflateFormatError('stored block ends early');
    } else if (type === 1) {
      symbols(r, fixedLit, fixedDist);
    } else if (type === 2) {
      const [lit, dist] = dynamicTables(r);
      symbols(r, lit, dist);
    } else {
      throw new DeflateFormatError('reserved block type');
    }
    if (final) return r.end;
  }
}

function dynamicTables(r: Bits): [Huffman, Huffman] {
  const hlit = r.bits(5) + 257;
  const hdist = r.bits(5) + 1;
  const hclen = r.bits(4) + 4;
  const clLengths = new Uint8Array(19);
  for (let i = 0; i < hclen; i++) clLengths[CODE_LENGTH_ORDER[i]!] = r.bits(3);
  const cl = build(clLengths, 19);
  const lengths = new Uint8Array(hlit + hdist);
  for (let i = 0; i < hlit + hdist; ) {
    const sym = r.decode(cl);
    if (sym < 16) {
      lengths[i++] = sym;
      continue;
    }
    let repeat: number;
    let value = 0;
    if (sym === 16) {
      if (i === 0) throw new DeflateFormatError('repeat with no previous length');
      value = lengths[i - 1]!;
      repeat = 3 + r.bits(2);
    } else if (sym === 17) {
      repeat = 3 + r.bits(3);
    } else {
      repeat = 11 + r.bits(7);
    }
    if (i + repeat > hlit + hdist) throw new DeflateFormatError('code lengths overrun');
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  return [build(lengths.subarray(0, hlit), hlit), build(lengths.subarray(hlit), hdist)];
}

function symbols(r: Bits, lit: Huffman, dist: Huffman): void {
  for (;;) {
    const sym = r.decode(lit);
    if (sym < 256) continue;
    if (sym === 256) return;
    const l = sym - 257;
    if (l >= 29) throw new DeflateFormatError('invalid length symbol');
    r.bits(LENGTH_EXTRA[l]!);
    const d = r.decode(dist);
    if (d >= 30) throw new DeflateFormatError('invalid distance symbol');
    r.bits(DIST_EXTRA[d]!);
  }
}
