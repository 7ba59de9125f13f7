// Memory of a large provider request through /v1/proxy, in a bridge process of its own (peak RSS from /proc).
// Reading the envelope whole held the socket chunks, the body bytes, its text, the parsed string and its UTF-8 copy
// at once: 3.4x the body above idle for 64 MiB. Decoded as it arrives into one buffer it is about 1.2x (the buffer,
// the socket's write queue and the 64 KiB chunks not yet collected). `npm run bench` prints both directions.
import { describe, expect, it } from 'vitest';
import { canMeasurePeak, proxyPeakBytes } from './fixtures/memory';

describe.skipIf(!canMeasurePeak)('memory of a proxied request', () => {
  it('a 32 MiB request body reaches the provider whole while the bridge peaks at under 2x the body in resident memory', async () => {
    const size = 32 * 1024 * 1024;
    const { peakBytes, receivedBytes } = await proxyPeakBytes('up', size);
    expect(receivedBytes).toBe(size);
    expect(peakBytes / size).toBeLessThan(2);
  }, 60_000);
});
