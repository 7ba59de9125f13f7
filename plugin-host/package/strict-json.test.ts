import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strict-json';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'accepted';
};

describe('strict JSON', () => {
  it('parses what JSON.parse parses, for ordinary documents', () => {
    const doc = '{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n\\"",{}],"b":{"c":"ü😀"}}';
    expect(parseStrictJson(doc)).toEqual(JSON.parse(doc));
    expect(parseStrictJson(new TextEncoder().encode(' [0, 1e-2] '))).toEqual([0, 0.01]);
  });

  it('refuses duplicate keys with the path of the second one', () => {
    expect(() => parseStrictJson('{"a":{"b":1,"b":2}}')).toThrow(
      expect.objectContaining({ code: 'E_MANIFEST_DUPLICATE_KEY', data: { path: 'a.b' } }),
    );
  });

  it('never gives __proto__ a chance to reach a prototype', () => {
    expect(code(() => parseStrictJson('{"__proto__":{"polluted":true}}'))).toBe('E_MANIFEST_FORBIDDEN_KEY');
    expect(code(() => parseStrictJson('{"x":{"constructor":{"prototype":{}}}}'))).toBe('E_MANIFEST_FORBIDDEN_KEY');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what RFC 8259 refuses', () => {
    for (const bad of [
      '{"a":1,}',
      "{'a':1}",
      '[01]',
      '[1.]',
      '[.5]',
      '[+1]',
      '[NaN]',
      '["\t"]',
      '["\\x41"]',
      '{"a" 1}',
      '[1] 2',
      '',
      '[1e999]',
      '"\\ud83d"',
    ]) {
      expect(
        code(() => parseStrictJson(bad)),
        bad,
      ).toBe('E_MANIFEST_JSON');
    }
  });

  it('refuses invalid UTF-8 and a byte-order mark', () => {
    expect(code(() => parseStrictJson(new Uint8Array([0x22, 0xc3, 0x28, 0x22])))).toBe('E_MANIFEST_UTF8');
    expect(code(() => parseStrictJson(new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])))).toBe('E_MANIFEST_UTF8'); // encoded surrogate
    expect(code(() => parseStrictJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31])))).toBe('E_MANIFEST_UTF8');
  });

  it('reports the line and column of a syntax error', () => {
    expect(() => parseStrictJson('{\n  "a": tru\n}')).toThrow(/line 2 column 8/);
  });

  it('parses a long but valid number whatever its length', () => {
    expect(parseStrictJson(`{"a": 1.${'0'.repeat(500)}1, "b": 2}`)).toEqual({ a: 1, b: 2 });
    expect(parseStrictJson(`[0.${'0'.repeat(1000)}5]`)).toEqual([0]);
    expect(parseStrictJson(`[${'9'.repeat(300)}]`)).toEqual([Number('9'.repeat(300))]);
  });

  it('names the real reason a number is refused, never a misleading "expected , or }"', () => {
    const reason = (doc: string) => {
      try {
        parseStrictJson(doc);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    expect(reason(`{"a": ${'9'.repeat(500)}}`)).toMatch(/a number \(500 characters long\) is out of range/);
    expect(reason('[01]')).toMatch(/may not start with 0 followed by digits/);
    expect(reason('[1.]')).toMatch(/digits after "\."/);
    expect(reason('[1e+]')).toMatch(/digits in its exponent/);
    expect(reason('[-]')).toMatch(/a number needs a digit/);
  });
});
