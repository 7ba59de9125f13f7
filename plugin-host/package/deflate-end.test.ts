import { describe, expect, it } from 'vitest';
import { constants, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { emptyBlocksDeflate } from '../fixtures/packages/cost-bombs';
import { BYTES_PER_BLOCK, DeflateBlockBomb, FREE_BLOCKS, deflateEnd, walkDeflate } from './deflate-end';

const sample = (n: number) => {
  let seed = 7;
  return new Uint8Array(n).map((_, i) =>
    i % 97 < 40 ? i % 7 : (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 23,
  );
};

describe('deflateEnd', () => {
  it('finds the exact end of stored, fixed and dynamic streams from zlib', () => {
    for (const [data, strategy, level] of [
      [sample(100_000), constants.Z_DEFAULT_STRATEGY, 9],
      [sample(70_000), constants.Z_DEFAULT_STRATEGY, 0], // stored blocks
      [new TextEncoder().encode('hello'), constants.Z_FIXED, 6], // fixed Huffman
      [sample(200_000), constants.Z_HUFFMAN_ONLY, 6],
      [new Uint8Array(0), constants.Z_DEFAULT_STRATEGY, 6],
    ] as const) {
      const compressed = new Uint8Array(deflateRawSync(data, { strategy, level }));
      expect(deflateEnd(compressed)).toBe(compressed.length);
      const withJunk = new Uint8Array([...compressed, 1, 2, 3]);
      expect(deflateEnd(withJunk)).toBe(compressed.length);
    }
  });

  it('throws on truncated data', () => {
    const compressed = new Uint8Array(deflateRawSync(sample(10_000)));
    expect(() => deflateEnd(compressed.subarray(0, compressed.length - 5))).toThrow(/ends early/);
  });

  it('counts the blocks and the inflated bytes they describe', () => {
    const data = sample(100_000);
    const walk = walkDeflate(new Uint8Array(deflateRawSync(data, { strategy: constants.Z_HUFFMAN_ONLY })));
    expect(walk.produced).toBe(data.length);
    expect(walk.blocks).toBeGreaterThan(1);
  });

  it('stops counting past the output cap and leaves the end to the native inflater', () => {
    const zeros = new Uint8Array(deflateRawSync(new Uint8Array(1024 * 1024)));
    const walk = walkDeflate(zeros, 64 * 1024);
    expect(walk.end).toBeUndefined();
    expect(walk.produced).toBeGreaterThan(64 * 1024);
    expect(walk.produced).toBeLessThan(64 * 1024 + 300);
  });
});

describe('walkDeflate against block bombs', () => {
  const payload = new Uint8Array([1, 2, 3]);

  it('accepts up to FREE_BLOCKS blocks whatever the output (the generator is valid deflate)', () => {
    const stream = emptyBlocksDeflate(FREE_BLOCKS - 1, payload);
    expect(new Uint8Array(inflateRawSync(stream))).toEqual(payload);
    expect(walkDeflate(stream)).toEqual({ end: stream.length, blocks: FREE_BLOCKS, produced: 3 });
  });

  it('refuses the first block past FREE_BLOCKS + one per BYTES_PER_BLOCK inflated bytes', () => {
    const stream = emptyBlocksDeflate(FREE_BLOCKS, payload);
    expect(new Uint8Array(inflateRawSync(stream))).toEqual(payload);
    expect(() => walkDeflate(stream)).toThrow(DeflateBlockBomb);
    try {
      walkDeflate(emptyBlocksDeflate(100_000, payload));
    } catch (e) {
      // Refused as soon as the count is exceeded, not after walking all 100,000 blocks.
      expect(e).toMatchObject({ blocks: FREE_BLOCKS + 1, produced: 0 });
    }
  });

  it('accepts a streaming writer that flushes after every 1 KiB write (two blocks per KiB)', async () => {
    const data = sample(256 * 1024);
    const d = createDeflateRaw();
    const chunks: Buffer[] = [];
    d.on('data', (c: Buffer) => chunks.push(c));
    for (let i = 0; i < data.length; i += 1024) {
      d.write(data.subarray(i, i + 1024));
      await new Promise<void>((resolve) => d.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    }
    const ended = new Promise<void>((resolve) => d.on('end', () => resolve()));
    d.end();
    await ended;
    const stream = new Uint8Array(Buffer.concat(chunks));
    const walk = walkDeflate(stream);
    expect(walk.end).toBe(stream.length);
    expect(walk.blocks).toBeGreaterThan(data.length / 1024);
    expect(walk.blocks).toBeLessThanOrEqual(FREE_BLOCKS + data.length / BYTES_PER_BLOCK);
  });

  it('refuses an over-subscribed code instead of building a table for it', () => {
    // A dynamic block whose code-length code gives all 19 symbols length 1.
    const bits: number[] = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, ...Array(19).fill([1, 0, 0]).flat()];
    const bytes = new Uint8Array(Math.ceil(bits.length / 8) + 4);
    bits.forEach((b, i) => (bytes[i >> 3]! |= b << (i & 7)));
    expect(() => walkDeflate(bytes)).toThrow(/over-subscribed/);
  });
});
