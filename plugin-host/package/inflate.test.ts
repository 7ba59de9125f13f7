import { describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { InflateCapExceeded, inflateRawCapped } from './inflate';

describe('inflateRawCapped', () => {
  it('inflates data up to exactly the cap', async () => {
    const data = new Uint8Array(100_000).map((_, i) => i % 251);
    expect(await inflateRawCapped(new Uint8Array(deflateRawSync(data)), 100_000)).toEqual(data);
  });

  it('stops one byte past the cap whatever the stream would produce', async () => {
    const bomb = new Uint8Array(deflateRawSync(new Uint8Array(32 * 1024 * 1024)));
    await expect(inflateRawCapped(bomb, 1024)).rejects.toBeInstanceOf(InflateCapExceeded);
    await expect(inflateRawCapped(new Uint8Array(deflateRawSync(new Uint8Array(1025))), 1024)).rejects.toBeInstanceOf(
      InflateCapExceeded,
    );
  });

  it('rejects truncated deflate data', async () => {
    const whole = new Uint8Array(deflateRawSync(new TextEncoder().encode('hello hello hello hello')));
    await expect(inflateRawCapped(whole.slice(0, whole.length - 3), 1000)).rejects.not.toBeInstanceOf(
      InflateCapExceeded,
    );
  });
});
