import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile-schema';
import { schemaPatterns } from './validate-patterns';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('schema patterns never reach a backtracking RegExp', () => {
  it('answers a catastrophic pattern against its worst input (the 16 s case) with a plain mismatch', () => {
    const check = compileSchema(obj({ x: { type: 'string', pattern: '^(a+)+$' } }), 'arguments');
    // With RegExp this call takes seconds (exponential); the linear engine answers at once. A result, not a timing.
    expect(check({ x: `${'a'.repeat(28)}!` })).toEqual(['At arguments.x: String does not match pattern.']);
    expect(check({ x: 'aaaa' })).toEqual([]);
  });

  it('still validates ordinary patterns, unanchored like JSON Schema, at the right place only', () => {
    const check = compileSchema(
      obj({
        id: { type: 'string', pattern: '^[a-z][a-z0-9-]{2,15}$' },
        note: { type: 'string', pattern: 'TODO' },
        tags: { type: 'array', items: { type: 'string', pattern: '^#\\w+$' } },
      }),
      'arguments',
    );
    expect(check({ id: 'ab-12', note: 'a TODO here', tags: ['#x', '#y_2'] })).toEqual([]);
    expect(check({ id: 'Ab', note: 'done', tags: ['#ok', 'bad tag'] })).toEqual([
      'At arguments.id: String does not match pattern.',
      'At arguments.note: String does not match pattern.',
      'At arguments.tags[1]: String does not match pattern.',
    ]);
    // The same string matches in one place and not another: each place gets its own verdict.
    expect(check({ id: 'TODO', note: 'TODO' })).toEqual(['At arguments.id: String does not match pattern.']);
  });

  it('keeps pattern semantics inside combinators and not', () => {
    const check = compileSchema(
      obj({
        v: {
          anyOf: [
            { type: 'string', pattern: '^\\d+$' },
            { type: 'string', pattern: '^x' },
          ],
          not: { pattern: '^13$' },
        },
      }),
      'arguments',
    );
    expect(check({ v: '42' })).toEqual([]);
    expect(check({ v: 'xyz' })).toEqual([]);
    expect(check({ v: '13' })).not.toEqual([]);
    expect(check({ v: 'y' })).not.toEqual([]);
  });

  it('evaluates patternProperties and propertyNames with the linear engine, quoting the schema’s own pattern', () => {
    const check = compileSchema(
      {
        type: 'object',
        patternProperties: { '^n_': { type: 'number' }, '^(a+)+$': { type: 'boolean' } },
        additionalProperties: false,
        propertyNames: { pattern: '^[a-z_]+$' },
      },
      'arguments',
    );
    expect(check({ n_a: 1, aaa: true })).toEqual([]);
    const errors = check({ n_a: 'one', zz: 1 });
    expect(errors).toContain(
      'At arguments: Property "n_a" matches pattern "^n_" but does not match associated schema.',
    );
    expect(errors.some((e) => e.includes('"zz"'))).toBe(true);
    expect(check({ Bad: 1 }).length).toBeGreaterThan(0);
    expect(check({ ['a'.repeat(40) + '!']: true }).length).toBeGreaterThan(0);
  });

  it('fails closed with E_SCHEMA_PATTERN_UNSUPPORTED when a pattern needs backtracking features', () => {
    const check = compileSchema(obj({ x: { type: 'string', pattern: '^(a)\\1$' } }), 'arguments');
    const errors = check({ x: 'aa' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^At arguments: E_SCHEMA_PATTERN_UNSUPPORTED: .*"\^\(a\)\\\\1\$"/);
    // Even a value the pattern would accept, and even under `not`, is refused: nothing is guessed.
    expect(compileSchema(obj({ x: { not: { pattern: '(?=a)' } } }), 'arguments')({ x: 'b' })[0]).toContain(
      'E_SCHEMA_PATTERN_UNSUPPORTED',
    );
  });

  it('finds patterns in schema positions only, not in data or property names', () => {
    const schema = {
      type: 'object',
      properties: { pattern: { type: 'string', pattern: 'p1' } },
      enum: [{ pattern: 'data' }],
      default: { pattern: 'data2' },
      $defs: { d: { pattern: 'p2' } },
      'x-vendor': { pattern: 'p3' },
    };
    expect(schemaPatterns(schema).sort()).toEqual(['p1', 'p2', 'p3']);
  });

  it('matches strings with regex syntax, newlines and astral characters literally in the stand-in', () => {
    const check = compileSchema(
      obj({ s: { type: 'string', pattern: '^.+$' }, t: { type: 'string', pattern: 'b' } }),
      'arguments',
    );
    expect(check({ s: 'a.b*c(d)[e]{f}|g/h\\i$^', t: 'ab\u0000c\u{1F600}' })).toEqual([]);
    expect(check({ s: 'line\nbreak', t: 'b' })).toEqual(['At arguments.s: String does not match pattern.']);
  });
});

describe('schema patterns against long strings', () => {
  it('checks a 100,000-character string that matches (one long literal stand-in made V8 refuse the regex as too large)', () => {
    const check = compileSchema(
      obj({ x: { type: 'string', pattern: '^(a+)+$' }, y: { type: 'string', pattern: '^é+😀$' } }),
      'arguments',
    );
    expect(check({ x: 'a'.repeat(100_000), y: `${'é'.repeat(60_000)}😀` })).toEqual([]);
    expect(check({ x: `${'a'.repeat(100_000)}b`, y: 'é'.repeat(60_000) })).toEqual([
      'At arguments.x: String does not match pattern.',
      'At arguments.y: String does not match pattern.',
    ]);
  });

  it('refuses at once, with a bounded sentence, a value whose matching strings are too long to spell out as a stand-in', () => {
    const check = compileSchema(obj({ x: { type: 'string', pattern: '^a+$' } }), 'arguments');
    // 4 MB of matching text made V8 spend ~5 s and then refuse the stand-in regex, quoting its whole source; 1 MB is enough here.
    const errors = check({ x: 'a'.repeat(1_000_000) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^At arguments: E_SCHEMA_ARGS_TOO_LARGE: .* Nothing was run; send fewer or shorter strings\.$/,
    );
    expect(errors[0]!.length).toBeLessThan(400);
    // A long string the pattern does not match needs no stand-in and gets the plain verdict.
    expect(check({ x: `${'a'.repeat(1_000_000)}!` })).toEqual(['At arguments.x: String does not match pattern.']);
  });
});
