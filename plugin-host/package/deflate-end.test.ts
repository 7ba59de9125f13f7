import { describe, expect, it } from 'vitest';
import { constants, deflateRawSync } from 'node:zlib';
import { deflateEnd } from './deflate-end';

const sample = (n: number) => {
  let seed = 7;
  return new Uint8Array(n).map((_, i) => (i % 97 < 40 ? i % 7 : (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 23));
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
});
