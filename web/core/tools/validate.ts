// Argument checks against a tool's JSON schema (and the hook data shapes) with @cfworker/json-schema: it
// interprets schemas without `eval`/`new Function`, so it runs under the PWA's strict CSP (STYLE.md §7).
// This is a shape check, not a sandbox and not a claim of complete JSON Schema coverage (seed 000 §5).
import { Validator, type OutputUnit } from '@cfworker/json-schema';

/** Wrapper keywords that only repeat a deeper, more precise error. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'false', 'dependentSchemas', 'unevaluatedProperties']);

export type SchemaCheck = (value: unknown) => string[];

/**
 * Compiles a JSON schema (draft 2020-12) once. The returned check lists errors as `At <root>.<path>: <reason>`,
 * most precise first; an empty list means valid.
 */
export function compileSchema(schema: Record<string, unknown> | boolean, root = 'value'): SchemaCheck {
  const validator = new Validator(schema as never, '2020-12', false);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return [];
    const precise = result.errors.filter((e) => !WRAPPERS.has(e.keyword));
    return dedupe((precise.length > 0 ? precise : result.errors).map((e) => formatError(e, root)));
  };
}

function formatError(e: OutputUnit, root: string): string {
  const path = e.instanceLocation
    .replace(/^#/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
  return `At ${root}${path}: ${e.error}`;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** A schema a tool may declare: an object schema (seed 000 §1: "参数 schema 必须为 object"). */
export function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) && (schema as Record<string, unknown>).type === 'object';
}
