// Walks the block structure of a raw deflate stream (Huffman symbols only, no output) for two verdicts the native
// inflaters cannot give us:
// - where the stream ends: Node 20's DecompressionStream silently ignores bytes after the final block while
//   Chromium's rejects them, so a package hiding bytes inside an entry's compressed data would get two verdicts;
// - whether it is a block bomb: deflate has no minimum block size, so 10 MiB can hold ~900,000 empty dynamic blocks
//   that inflate to nothing, and every inflater (zlib included) rebuilds its Huffman tables for each one. Real
//   encoders emit one block per several KiB of output (zlib: ~16K symbols), so more than FREE_BLOCKS plus one block
//   per BYTES_PER_BLOCK inflated bytes is refused as soon as it is seen, before the native inflater runs.
// Cost: the walk runs first, so its own work must be bounded by what it reads, not by the size cap (it is not: the
// old walk rebuilt and cleared three lookup tables per block, ~20 s for the bomb). Per block it does a bounded amount
// of work beyond the bits it consumes: counts and sorted symbols (at most 320) in tables allocated once per walk, a
// 128-entry code-length table, and, only once a block has decoded FAST_AFTER symbols, its literal (1024) and
// distance (256) lookup tables, invalidated by a generation number instead of being cleared. With at most one block
// per BYTES_PER_BLOCK output bytes, that is a few operations per inflated byte (validate.bench.ts measures it).
// It stops counting once the output passes `maxOutput` (the entry's cap), leaving that verdict to the native
// inflater, which stops at the same cap.

const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/** Lookup bits of the literal/length tables; distance tables use 8 and the code-length table 7 (its longest code). */
const FAST_BITS = 10;
/** Symbols a block decodes bit by bit before its lookup tables are built. */
const FAST_AFTER = 16;

/** Blocks any stream may have whatever its output (a few flushes, an empty final block). */
export const FREE_BLOCKS = 64;
/** Beyond FREE_BLOCKS, one block per this many inflated bytes (a sync flush after every 1 KiB write still passes). */
export const BYTES_PER_BLOCK = 512;

export class DeflateFormatError extends Error {}

/** More blocks than the output justifies: a stream built to make inflaters slow. */
export class DeflateBlockBomb extends Error {
  constructor(
    readonly blocks: number,
    readonly produced: number,
  ) {
    super(`${blocks} deflate blocks for ${produced} inflated bytes`);
  }
}

/** Bit reversal of a byte, for the bit-reversed lookup indices. */
const REV8 = new Uint8Array(256).map((_, b) => {
  let r = 0;
  for (let i = 0; i < 8; i++) r |= ((b >>> i) & 1) << (7 - i);
  return r;
});
const reverse = (code: number, len: number) => ((REV8[code & 0xff]! << 8) | REV8[code >>> 8]!) >>> (16 - len);

class Huffman {
  readonly counts = new Uint16Array(16);
  private readonly offsets = new Uint16Array(16);
  readonly symbols: Uint16Array;
  /**
   * Indexed by the next FAST_BITS input bits: (generation << 13) | (symbol << 4) | code length. An entry of an
   * older generation means "a longer code": bumping the generation replaces clearing the 1024 entries per block.
   */
  readonly fast: Int32Array;
  readonly fastMask: number;
  generation = 0;
  fastReady = false;

  constructor(
    size: number,
    readonly fastBits = FAST_BITS,
  ) {
    this.symbols = new Uint16Array(size);
    this.fast = new Int32Array(1 << fastBits);
    this.fastMask = (1 << fastBits) - 1;
  }

  /** Counts and canonically sorted symbols of `n` code lengths: O(n), no lookup table yet. */
  set(lengths: Uint8Array, from: number, n: number): void {
    const counts = this.counts;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[lengths[from + i]!]!++;
    counts[0] = 0;
    // An over-subscribed code is corrupt (zlib refuses it too); refusing it here also bounds buildFast to 1024 entries.
    let left = 1;
    for (let len = 1; len < 16; len++) {
      left = (left << 1) - counts[len]!;
      if (left < 0) throw new DeflateFormatError('over-subscribed Huffman code');
    }
    const offsets = this.offsets;
    offsets[0] = 0;
    for (let i = 1; i < 16; i++) offsets[i] = offsets[i - 1]! + counts[i - 1]!;
    for (let i = 0; i < n; i++) {
      const len = lengths[from + i]!;
      if (len) this.symbols[offsets[len]!++] = i;
    }
    this.fastReady = false;
  }

  /** The lookup table for codes up to FAST_BITS long (canonical codes, RFC 1951 §3.2.2, stored bit-reversed). */
  buildFast(): void {
    const fast = this.fast;
    // 2^17 generations (bits 13-30) outlast the most blocks a walk accepts (64 + 10 MiB / 512 < 2^15).
    this.generation = (this.generation + 1) & 0x1ffff;
    if (this.generation === 0) {
      fast.fill(0);
      this.generation = 1;
    }
    const tag = this.generation << 13;
    let code = 0;
    let index = 0;
    const size = 1 << this.fastBits;
    for (let len = 1; len <= this.fastBits; len++) {
      for (let k = 0; k < this.counts[len]!; k++, code++) {
        const entry = tag | (this.symbols[index++]! << 4) | len;
        for (let i = reverse(code, len); i < size; i += 1 << len) fast[i] = entry;
      }
      code <<= 1;
    }
    this.fastReady = true;
  }
}

function fixed(lengths: Uint8Array, fastBits: number): Huffman {
  const h = new Huffman(lengths.length, fastBits);
  h.set(lengths, 0, lengths.length);
  h.buildFast();
  return h;
}
const fixedLit = fixed(
  new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288),
  FAST_BITS,
);
const fixedDist = fixed(new Uint8Array(30).fill(5), 8);

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
    if (h.fastReady) {
      this.fill(h.fastBits);
      const e = h.fast[this.buf & h.fastMask]!;
      const len = e & 15;
      if (e >>> 13 === h.generation && len <= this.count) {
        this.buf >>>= len;
        this.count -= len;
        return (e >>> 4) & 0x1ff;
      }
    }
    // Codes longer than FAST_BITS, a block still without its table, or the last bits of the input: walk the
    // canonical code bit by bit (at most 15 steps).
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

export interface DeflateWalk {
  /** Byte offset just after the final block, or undefined when the output passed `maxOutput` first. */
  end: number | undefined;
  blocks: number;
  /** Inflated bytes the blocks walked so far describe. */
  produced: number;
}

/** Per-walk scratch: three tables and the code lengths of one dynamic header, reused by every block. */
class Scratch {
  readonly lengths = new Uint8Array(288 + 32);
  readonly cl = new Huffman(19, 7);
  readonly lit = new Huffman(288);
  readonly dist = new Huffman(32, 8);
}

/**
 * Walks `data` to the end of its final block. Throws DeflateFormatError on malformed structure and DeflateBlockBomb
 * as soon as the block count exceeds FREE_BLOCKS + produced / BYTES_PER_BLOCK.
 */
export function walkDeflate(data: Uint8Array, maxOutput = Number.POSITIVE_INFINITY): DeflateWalk {
  const r = new Bits(data);
  const scratch = new Scratch();
  const walk: DeflateWalk = { end: -1, blocks: 0, produced: 0 };
  for (;;) {
    walk.blocks++;
    if (walk.blocks > FREE_BLOCKS + walk.produced / BYTES_PER_BLOCK)
      throw new DeflateBlockBomb(walk.blocks, walk.produced);
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
      walk.produced += len;
    } else if (type === 1) {
      walk.produced += symbols(r, fixedLit, fixedDist, maxOutput - walk.produced);
    } else if (type === 2) {
      dynamicTables(r, scratch);
      walk.produced += symbols(r, scratch.lit, scratch.dist, maxOutput - walk.produced);
    } else {
      throw new DeflateFormatError('reserved block type');
    }
    if (walk.produced > maxOutput) {
      walk.end = undefined;
      return walk;
    }
    if (final) {
      walk.end = r.end;
      return walk;
    }
  }
}

/** The byte offset just after the final deflate block of `data` (no output cap). */
export function deflateEnd(data: Uint8Array): number {
  return walkDeflate(data).end!;
}

function dynamicTables(r: Bits, s: Scratch): void {
  const hlit = r.bits(5) + 257;
  const hdist = r.bits(5) + 1;
  const hclen = r.bits(4) + 4;
  const lengths = s.lengths;
  lengths.fill(0, 0, 19);
  for (let i = 0; i < hclen; i++) lengths[CODE_LENGTH_ORDER[i]!] = r.bits(3);
  s.cl.set(lengths, 0, 19);
  // Up to 320 code lengths follow: a 128-entry table pays for itself at once (bit-by-bit decoding cost ~12 µs/block).
  s.cl.buildFast();
  const total = hlit + hdist;
  for (let i = 0; i < total;) {
    const sym = r.decode(s.cl);
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
    if (i + repeat > total) throw new DeflateFormatError('code lengths overrun');
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  s.lit.set(lengths, 0, hlit);
  s.dist.set(lengths, hlit, hdist);
}

/** Walks one block's symbols; returns the bytes they inflate to (stopping once `room` is passed). */
function symbols(r: Bits, lit: Huffman, dist: Huffman, room: number): number {
  let produced = 0;
  for (let n = 0; ; n++) {
    if (n === FAST_AFTER) {
      if (!lit.fastReady) lit.buildFast();
      if (!dist.fastReady) dist.buildFast();
    }
    const sym = r.decode(lit);
    if (sym < 256) {
      produced++;
    } else if (sym === 256) {
      return produced;
    } else {
      const l = sym - 257;
      if (l >= 29) throw new DeflateFormatError('invalid length symbol');
      produced += LENGTH_BASE[l]! + r.bits(LENGTH_EXTRA[l]!);
      const d = r.decode(dist);
      if (d >= 30) throw new DeflateFormatError('invalid distance symbol');
      r.bits(DIST_EXTRA[d]!);
    }
    // Past the cap the native inflater gives the verdict (it stops there too); walking on would cost reading
    // the rest of a highly compressed stream for nothing.
    if (produced > room) return produced;
  }
}
