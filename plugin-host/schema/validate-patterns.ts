// Keeps third-party `pattern` / `patternProperties` regexes away from JavaScript's backtracking RegExp. A tool schema
// comes from a plugin, an MCP server or the bridge, and @cfworker/json-schema runs `new RegExp(pattern, 'u').test()`
// synchronously on the main thread: `^(a+)+$` against 28 "a" and a "!" took 16 s. Instead every pattern is run by
// the linear-time engine of `search` against the strings of the value being checked (its string values and its
// property names), and the schema handed to cfworker gets, in place of each pattern, an anchored alternation of
// exactly the strings that matched — a regex V8 matches in linear time, with the same verdict at every place the
// pattern applies. Patterns the linear engine does not support (backreferences, lookaround, `\p{…}`) fail closed:
// every check of that schema is refused with E_SCHEMA_PATTERN_UNSUPPORTED.
// Known difference: the linear engine works on UTF-16 code units, so `.` counts an astral character as two.
import { HarnessError, quoteUntrusted } from '../errors';
import { compileLinearRegex, type LinearRegex } from './linear-regex';

type Schema = Record<string, unknown> | boolean;

/** Keywords whose value is one schema (or, for `items`, possibly an array of schemas). */
const ONE = new Set([
  'additionalProperties',
  'additionalItems',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
]);
const MANY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords holding data, never schemas: left exactly as they are. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'required', 'dependentRequired', 'type', 'format']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const NONE: ReadonlySet<string> = new Set();

/**
 * A copy of `schema` with every `pattern` and every `patternProperties` key passed through `map`. Keywords in `omit` are left out of every schema
 * object. Walks schema positions only (a property called "pattern" or an enum value is data); unknown keywords are walked as schemas,
 * so a `$ref` into them cannot reach an unmapped pattern.
 */
export function mapSchemaPatterns(
  schema: Schema,
  map: (pattern: string) => string,
  omit: ReadonlySet<string> = NONE,
): Schema {
  const walk = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(walk);
    if (!isRecord(s)) return s;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s)) {
      if (omit.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') out[key] = map(value);
      else if (DATA.has(key) || typeof value !== 'object' || value === null) out[key] = value;
      else if (ONE.has(key) || MANY.has(key)) out[key] = walk(value);
      else if (MAP.has(key) && isRecord(value)) {
        const mapped: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(value))
          mapped[key === 'patternProperties' ? map(name) : name] = Array.isArray(sub) ? sub : walk(sub);
        out[key] = mapped;
      } else out[key] = walk(value);
    }
    return out;
  };
  return walk(schema) as Schema;
}

/** Every regex source in the schema (`pattern` values and `patternProperties` keys). */
export function schemaPatterns(schema: Schema): string[] {
  const found = new Set<string>();
  mapSchemaPatterns(schema, (p) => (found.add(p), p));
  return [...found];
}

export interface PatternPlan {
  /** Lines to answer every check with when a pattern cannot be evaluated safely; empty otherwise. */
  refusal: string[];
  /** The schema for one value: each pattern replaced by the strings of `value` it matches, plus the reverse map. */
  forValue(value: unknown): { schema: Schema; original: Map<string, string>; tooLarge: boolean };
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/**
 * Code points per group of a literal. V8 refuses one long literal run ("Regular expression too large" from about
 * 40 000 characters: a 50 000-character argument matched by its pattern failed the check), but compiles the same text
 * as a sequence of short groups, in time linear in its length.
 */
const LITERAL_GROUP = 256;

/**
 * Most characters of matching strings one pattern's stand-in may spell out. V8 still compiles grouped literals in
 * linear time, but slowly (~0.5 s per million characters) and refuses them somewhere past a few million: a value
 * whose matching strings are longer is refused (E_SCHEMA_ARGS_TOO_LARGE) before any regex is built. Patterns
 * constrain names, ids and short fields; 256 Ki characters of them is far beyond real use.
 */
export const PATTERN_HITS_MAX_CHARS = 256 * 1024;

/** A `u`-mode regex source matching exactly `text`. */
function literal(text: string): string {
  let out = '';
  let group = '';
  let count = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (SYNTAX.has(ch)) group += `\\${ch}`;
    else if (cp < 0x20 || cp > 0x7e) group += `\\u{${cp.toString(16)}}`;
    else group += ch;
    if (++count === LITERAL_GROUP) {
      out += `(?:${group})`;
      group = '';
      count = 0;
    }
  }
  return out === '' ? group : out + (group === '' ? '' : `(?:${group})`);
}

/** Every string value and every property name in `value`. */
function candidates(value: unknown): string[] {
  const out = new Set<string>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (isRecord(v)) {
      for (const [k, sub] of Object.entries(v)) {
        out.add(k);
        stack.push(sub);
      }
    }
  }
  return [...out];
}

export function planPatterns(schema: Schema, root: string): PatternPlan | undefined {
  const patterns = schemaPatterns(schema);
  if (patterns.length === 0) return undefined;
  const compiled = new Map<string, LinearRegex>();
  const refusal: string[] = [];
  for (const p of patterns) {
    try {
      compiled.set(p, compileLinearRegex(p));
    } catch (error) {
      const why = HarnessError.isInstance(error)
        ? error.message.replace(/^The regular expression /, '').replace(/\. (Fix it|Rewrite the pattern).*$/, '')
        : String(error);
      refusal.push(
        `At ${root}: E_SCHEMA_PATTERN_UNSUPPORTED: the tool's schema has the pattern ${quoteUntrusted(p)}, which i cannot check in linear time (it ${why}). ` +
          'Nothing was run; the tool can be called once its author rewrites that pattern without backreferences, lookaround or other unsupported syntax.',
      );
    }
  }
  return {
    refusal,
    forValue(value) {
      const strings = candidates(value);
      const index = new Map(patterns.map((p, i) => [p, i]));
      const original = new Map<string, string>();
      const done = new Map<string, string>();
      let tooLarge = false;
      const replaced = mapSchemaPatterns(schema, (p) => {
        const known = done.get(p);
        if (known !== undefined) return known;
        const re = compiled.get(p)!;
        const hits = strings.filter((s) => re.search(s) >= 0);
        if (hits.reduce((n, s) => n + s.length, 0) > PATTERN_HITS_MAX_CHARS) tooLarge = true;
        // The leading empty groups keep two patterns with the same hits distinct (patternProperties keys must differ).
        const source =
          '(?:)'.repeat(index.get(p)!) +
          (hits.length > 0 && !tooLarge ? `^(?:${hits.map(literal).join('|')})$` : '[^\\s\\S]');
        original.set(source, p);
        done.set(p, source);
        return source;
      });
      return { schema: replaced, original, tooLarge };
    },
  };
}
