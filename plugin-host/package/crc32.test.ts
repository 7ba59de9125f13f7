import { describe, expect, it } from 'vitest';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from './crc32';

describe('crc32', () => {
  it('gives the check value of "123456789" and agrees with zlib at every length and alignment', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const data = new Uint8Array(4099).map((_, i) => (i * 167 + 13) & 0xff);
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [1, 8],
      [3, 17],
      [0, 4099],
      [5, 4000],
    ] as const) {
      const slice = data.subarray(start, end);
      expect(crc32(slice), `${start}..${end}`).toBe(zlibCrc32(slice));
    }
  });
});
