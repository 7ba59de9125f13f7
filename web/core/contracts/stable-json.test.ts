import { describe, expect, it } from 'vitest';
import { cachedStableJson, stableJson } from './stable-json';

describe('stableJson', () => {
  it('gives equal values in any key order the same key, and different values different keys', () => {
    expect(stableJson({ b: 1, a: [{ y: 2, x: 1 }], u: undefined })).toBe(stableJson({ a: [{ x: 1, y: 2 }], b: 1 }));
    expect(stableJson({ a: 1 })).not.toBe(stableJson({ a: '1' }));
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
  });

  it('remembers the key of an object it has seen', () => {
    const m = { role: 'user', content: 'x' };
    const first = cachedStableJson(m);
    m.content = 'changed in place';
    expect(cachedStableJson(m)).toBe(first);
  });
});
