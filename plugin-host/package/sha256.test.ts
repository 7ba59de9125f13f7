import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sha256Hex, sha256HexNoble, sha256HexWebCrypto, WEBCRYPTO_THRESHOLD } from './sha256';

describe('sha256Hex', () => {
  it('matches node:crypto on both sides of the WebCrypto threshold, by either implementation', async () => {
    for (const size of [0, 3, WEBCRYPTO_THRESHOLD - 1, WEBCRYPTO_THRESHOLD, 1_000_003]) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31) & 0xff);
      const want = createHash('sha256').update(bytes).digest('hex');
      expect(await sha256Hex(bytes)).toBe(want);
      expect(sha256HexNoble(bytes)).toBe(want);
      expect(await sha256HexWebCrypto(bytes)).toBe(want);
    }
  });
});
