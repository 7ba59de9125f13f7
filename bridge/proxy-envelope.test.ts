// The proxy envelope is decoded as it arrives; whatever the chunking, it must give exactly what JSON.parse and
// Buffer.from gave before (the body's UTF-8 bytes), and refuse what JSON refuses.
import { describe, expect, it } from 'vitest';
import { BridgeError } from './errors';
import { ProxyEnvelopeParser, type SpooledBody } from './proxy-envelope';

const MAX = 1024 * 1024;

function decode(text: string | Buffer, splits: number[] = [], declared?: number): Record<string, unknown> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const parser = new ProxyEnvelopeParser(MAX, declared);
  let at = 0;
  for (const cut of [...splits, bytes.length]) {
    parser.push(bytes.subarray(at, cut));
    at = cut;
  }
  return parser.end();
}

const bodyOf = (fields: Record<string, unknown>): Buffer => Buffer.concat((fields.body as SpooledBody).pieces);
const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    return BridgeError.isInstance(error) ? error.code : `not a BridgeError: ${String(error)}`;
  }
  return 'no error';
};

// A deterministic generator, so a failure names a case that can be run again.
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
}
const PIECES = [
  'a',
  ' ',
  'é',
  '€',
  '😀',
  '\n',
  '\t',
  '"',
  '\\',
  '/',
  '\u0001',
  '\u007f',
  '\u2028',
  '\ud800',
  '\udc00',
  '\ud83d',
  '\ude00',
  'x\ud83dy',
  '{"k":[1]}',
  '\u00ff',
];

describe('proxy envelope decoding', () => {
  it('gives the body bytes JSON.parse + Buffer.from gave, for escapes, surrogates and multibyte text split anywhere', () => {
    const next = random(29);
    for (let n = 0; n < 100; n++) {
      let text = '';
      const len = Math.floor(next() * 12);
      for (let k = 0; k < len; k++) text += PIECES[Math.floor(next() * PIECES.length)];
      const envelope = JSON.stringify({
        url: 'https://api.example/v1',
        method: 'POST',
        headers: { 'x-a': 'b"c' },
        body: text,
      });
      const expected = Buffer.from(text, 'utf8');
      const bytes = Buffer.from(envelope, 'utf8');
      // Every single split point, and a few random triple splits.
      for (let cut = 0; cut <= bytes.length; cut++) {
        const fields = decode(bytes, [cut]);
        expect(bodyOf(fields).equals(expected), `${JSON.stringify(text)} split at ${cut}`).toBe(true);
        expect(fields).toMatchObject({ url: 'https://api.example/v1', method: 'POST', headers: { 'x-a': 'b"c' } });
      }
      const cuts = [next(), next(), next()].map((r) => Math.floor(r * bytes.length)).sort((a, b) => a - b);
      expect(bodyOf(decode(bytes, cuts, bytes.length)).equals(expected)).toBe(true);
    }
  });

  it('accepts fields in any order, whitespace between tokens, and a body that is not a string (left to the proxy check)', () => {
    const fields = decode(' { "body" : "hi" , "headers" : { } ,\n"url":"https://a.example" } ');
    expect(bodyOf(fields).toString()).toBe('hi');
    expect(fields.url).toBe('https://a.example');
    expect(decode('{"url":"u","body":123}').body).toBe(123);
    expect(decode('{"url":"u","body":null,"method":"GET"}')).toEqual({ url: 'u', body: null, method: 'GET' });
    expect(decode('{}')).toEqual({});
  });

  it('refuses malformed JSON, raw control characters, bad escapes and invalid UTF-8 as E_BODY_INVALID', () => {
    const bad: (string | Buffer)[] = [
      '',
      '[]',
      '{"url":"u",}',
      '{"url":"u" "body":"x"}',
      '{"body":"a\nb"}',
      '{"body":"a\\qb"}',
      '{"body":"\\u12G4"}',
      '{"body":"x"',
      '{"body":"x"} x',
      '{"url":u}',
      '{"url"}',
      Buffer.concat([Buffer.from('{"body":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"body":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), // an encoded surrogate
      Buffer.concat([Buffer.from('{"body":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]), // cut short by the quote
    ];
    for (const input of bad)
      expect(
        codeOf(() => decode(input)),
        JSON.stringify(input.toString()),
      ).toBe('E_BODY_INVALID');
  });

  it('refuses a field named twice, a huge field name and oversized fields as E_PROXY_INVALID', () => {
    expect(codeOf(() => decode('{"url":"a","url":"b"}'))).toBe('E_PROXY_INVALID');
    expect(codeOf(() => decode(`{"${'k'.repeat(300)}":1}`))).toBe('E_PROXY_INVALID');
    expect(codeOf(() => decode(`{"headers":{"a":"${'v'.repeat(MAX + 10)}"}}`))).toBe('E_PROXY_INVALID');
    expect(codeOf(() => decode(`{"headers":${'['.repeat(200)}${']'.repeat(200)}}`))).toBe('E_BODY_TOO_DEEP');
  });

  it('refuses a decoded body over the cap as E_BODY_TOO_LARGE while it is still arriving', () => {
    const parser = new ProxyEnvelopeParser(1000, undefined);
    parser.push(Buffer.from('{"url":"u","body":"'));
    expect(codeOf(() => parser.push(Buffer.alloc(1001, 0x61)))).toBe('E_BODY_TOO_LARGE');
  });
});
