// Memory per authenticated request, in a bridge process of its own (peak RSS from /proc). Before the fix a 16 MiB
// echo call peaked at ~12x its body (every copy stayed resident until the request ended, the body buffer was kept by
// the reader's listeners, and node:http joined the answer to its head); `npm run bench` prints the figure for 32 MiB.
import { describe, expect, it } from 'vitest';
import { canMeasurePeak, requestPeakRatio } from './fixtures/memory';

describe.skipIf(!canMeasurePeak)('memory per request', () => {
  it('a 16 MiB tool call and its 16 MiB answer peak at well under 12x the body in resident memory', async () => {
    const ratio = await requestPeakRatio(16 * 1024 * 1024);
    expect(ratio).toBeLessThan(9);
  }, 60_000);
});
