// The JSON Schema subset accepted for `tools[].parameters` (seed 004: "受支持的 JSON Schema object 子集，不是任意
// JSON Schema 实现"). Generous enough for real tools, small enough that every host can enforce it the same way.
// Anything else, including `$ref`, `$schema`, combinators and vendor `x-` keywords, is refused with its path.
import { HarnessError, quoteUntrusted } from '../errors';
import { compileLinearRegex } from '../schema';
import { refuseAt, refuseInvisibleChar } from './codes';
import { MANIFEST_LIMITS } from './limits';
import { joinPath, type JsonValue } from './strict-json';

export const SCHEMA_KEYWORDS = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'description',
  'title',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;

export const SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;

const keywords = new Set<string>(SCHEMA_KEYWORDS);
const types = new Set<string>(SCHEMA_TYPES);

type JsonObject = { [key: string]: JsonValue };
const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a tool's `parameters`: an object schema (`"type": "object"`) in the subset. */
export function checkParameters(value: JsonValue | undefined, path: string): void {
  if (!isObject(value)) throw refuseAt('E_MANIFEST_SCHEMA', path, 'parameters must be a JSON Schema object.');
  if (value.type !== 'object')
    throw refuseAt('E_MANIFEST_SCHEMA', joinPath(path, 'type'), 'parameters must have "type": "object".');
  checkSchema(value, path, 1);
}

function checkSchema(schema: JsonValue, path: string, depth: number): void {
  if (!isObject(schema)) throw refuseAt('E_MANIFEST_SCHEMA', path, 'a schema must be a JSON object.');
  if (depth > MANIFEST_LIMITS.schemaDepth) {
    throw refuseAt('E_MANIFEST_SCHEMA', path, `schemas nest deeper than ${MANIFEST_LIMITS.schemaDepth} levels.`);
  }
  for (const key of Object.keys(schema)) {
    if (!keywords.has(key)) {
      throw refuseAt(
        'E_MANIFEST_SCHEMA_KEYWORD',
        joinPath(path, key),
        `the keyword ${quoteUntrusted(key)} is not in the supported subset.`,
        {
          keyword: key.slice(0, 200),
        },
      );
    }
  }
  const at = (key: string) => joinPath(path, key);
  const bad = (key: string, what: string): never => {
    throw refuseAt('E_MANIFEST_SCHEMA', at(key), what);
  };

  if ('type' in schema) {
    const t = schema.type;
    const list = Array.isArray(t) ? t : [t];
    if (list.length === 0) bad('type', 'type must name at least one type.');
    const seen = new Set<string>();
    for (const item of list) {
      if (typeof item !== 'string' || !types.has(item))
        bad('type', `type must be one of ${SCHEMA_TYPES.join(', ')} (or a list of them).`);
      if (seen.has(item as string)) bad('type', `type lists ${quoteUntrusted(item)} twice.`);
      seen.add(item as string);
    }
  }
  if ('properties' in schema) {
    const props = schema.properties;
    if (!isObject(props)) bad('properties', 'properties must be an object of schemas.');
    for (const [name, sub] of Object.entries(props as JsonObject)) {
      refuseInvisibleChar(name, joinPath(at('properties'), name)); // a form shows property names as labels
      checkSchema(sub, joinPath(at('properties'), name), depth + 1);
    }
  }
  if ('required' in schema) {
    const req = schema.required;
    if (!Array.isArray(req) || req.some((r) => typeof r !== 'string'))
      bad('required', 'required must be an array of property names.');
    const names = req as string[];
    if (new Set(names).size !== names.length) bad('required', 'required lists a property twice.');
    if (schema.additionalProperties === false) {
      const declared = isObject(schema.properties) ? schema.properties : {};
      const missing = names.find((n) => !Object.hasOwn(declared, n));
      if (missing !== undefined)
        bad(
          'required',
          `${quoteUntrusted(missing)} is required but not declared in properties, and additionalProperties is false.`,
        );
    }
  }
  if ('additionalProperties' in schema) {
    const ap = schema.additionalProperties;
    if (typeof ap !== 'boolean') checkSchema(ap!, at('additionalProperties'), depth + 1);
  }
  if ('items' in schema) {
    if (!isObject(schema.items)) bad('items', 'items must be one schema (tuple forms are not supported).');
    checkSchema(schema.items!, at('items'), depth + 1);
  }
  if ('enum' in schema) {
    const e = schema.enum;
    if (!Array.isArray(e) || e.length === 0) bad('enum', 'enum must be a non-empty array.');
    const seen = new Set((e as JsonValue[]).map((v) => canonical(v)));
    if (seen.size !== (e as JsonValue[]).length) bad('enum', 'enum lists a value twice.');
  }
  for (const key of ['description', 'title', 'pattern'] as const) {
    if (key in schema && typeof schema[key] !== 'string') bad(key, `${key} must be a string.`);
  }
  // Titles and descriptions are shown to a person (the try-a-tool form, approval cards) and to the model.
  for (const key of ['description', 'title'] as const) {
    if (typeof schema[key] === 'string') refuseInvisibleChar(schema[key], at(key));
  }
  if (typeof schema.pattern === 'string') {
    try {
      new RegExp(schema.pattern, 'u');
    } catch {
      bad('pattern', 'pattern is not a valid ECMAScript regular expression (with the "u" flag).');
    }
    // Hosts check arguments with a linear-time engine (plugin-host/schema), never with JS RegExp: a pattern it cannot
    // run (backreferences, lookaround) would install and then refuse every call, so it is refused here instead.
    try {
      compileLinearRegex(schema.pattern);
    } catch (error) {
      const why = HarnessError.isInstance(error)
        ? error.message
            .replace(/^The regular expression /, '')
            .replace(/(, which search does not support.*|\. (Fix it|Rewrite the pattern).*)$/, '')
        : 'is not supported';
      bad(
        'pattern',
        `pattern cannot be checked in linear time: it ${why}. Rewrite it without backreferences, lookahead or lookbehind.`,
      );
    }
  }
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (key in schema && typeof schema[key] !== 'number') bad(key, `${key} must be a number.`);
  }
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (key in schema) {
      const n = schema[key];
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
        bad(key, `${key} must be a non-negative integer.`);
    }
  }
  if ('uniqueItems' in schema && typeof schema.uniqueItems !== 'boolean')
    bad('uniqueItems', 'uniqueItems must be true or false.');
  const pairs = [
    ['minimum', 'maximum'],
    ['minLength', 'maxLength'],
    ['minItems', 'maxItems'],
  ] as const;
  for (const [lo, hi] of pairs) {
    const a = schema[lo];
    const b = schema[hi];
    if (typeof a === 'number' && typeof b === 'number' && a > b) bad(lo, `${lo} is greater than ${hi}.`);
  }
}

/** A key-order-independent serialisation, so `{"a":1,"b":2}` and `{"b":2,"a":1}` count as the same enum value. */
function canonical(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
