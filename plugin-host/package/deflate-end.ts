// Finds where a raw deflate stream ends. Node 20's DecompressionStream silently ignores bytes after the final
// block while Chromium's rejects them, so a package hiding bytes inside an entry's compressed data would get two
// verdicts; we decode the block structure ourselves (Huffman symbols only, no output) and refuse such bytes in
// both. Runs after the native inflate succeeded within its cap, so the work is bounded by that cap.

const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

export class DeflateFormatError extends Error {}

interface Huffman {
  counts: Uint16Array;
  symbols: Uint16Array;
}

function build(lengths: ArrayLike<number>, n: number): Huffman {
  const counts = new Uint16Array(16);
  for (let i = 0; i < n; i++) counts[lengths[i]!]!++;
  counts[0] = 0;
  const offsets = new Uint16Array(16);
  for (let i = 1; i < 16; i++) offsets[i] = offsets[i - 1]! + counts[i - 1]!;
  const symbols = new Uint16Array(n);
  for (let i = 0; i < n; i++) if (lengths[i]) symbols[offsets[lengths[i]!]!++] = i;
  return { counts, symbols };
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

  bit(): number {
    if (this.count === 0) {
      if (this.pos >= this.data.length) throw new DeflateFormatError('deflate data ends early');
      this.buf = this.data[this.pos++]!;
      this.count = 8;
    }
    const b = this.buf & 1;
    this.buf >>>= 1;
    this.count--;
    return b;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v |= this.bit() << i;
    return v;
  }

  alignToByte(): void {
    this.count = 0;
  }

  decode(h: Huffman): number {
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= this.bit();
      const count = h.counts[len]!;
      if (code - first < count) return h.symbols[index + code - first]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new DeflateFormatError('invalid Huffman code');
  }
}

/** The byte offset just after the final deflate block of `data`. */
export function deflateEnd(data: Uint8Array): number {
  const r = new Bits(data);
  for (;;) {
    const final = r.bit();
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
    if (final) return r.pos;
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
