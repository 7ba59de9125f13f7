// The app checks tool arguments in the page (Chromium): the same hostile inputs as the Node tests and `hplugin run`
// must be answered there at once, with the right verdicts.
import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile-schema';

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('tool argument checks in Chromium', () => {
  it('answers ^(a+)+$ against 50,000 "a" and a "b", and accepts 50,000 "a"', () => {
    const check = compileSchema(obj({ text: { type: 'string', pattern: '^(a+)+$' } }), 'arguments');
    expect(check({ text: `${'a'.repeat(50_000)}b` })).toEqual(['At arguments.text: String does not match pattern.']);
    expect(check({ text: 'a'.repeat(50_000) })).toEqual([]);
  });

  it('does not run the backtracking "url" format regex on a model-written argument', () => {
    const check = compileSchema(obj({ u: { type: 'string', format: 'url' } }), 'arguments');
    expect(check({ u: `http://${'a'.repeat(30)}!` })).toEqual([]);
  });

  it('refuses, in a bounded sentence, matching text too long to check', () => {
    const errors = compileSchema(
      obj({ x: { type: 'string', pattern: '^a+$' } }),
      'arguments',
    )({ x: 'a'.repeat(300_000) });
    expect(errors).toEqual([expect.stringMatching(/^At arguments: E_SCHEMA_ARGS_TOO_LARGE: /)]);
    expect(errors[0]!.length).toBeLessThan(400);
  });
});
