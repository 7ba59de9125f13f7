// Argument checks against a tool's JSON schema (and the hook data shapes) with @cfworker/json-schema: it
// interprets schemas without `eval`/`new Function`, so it runs under the PWA's strict CSP (STYLE.md §7).
// This is a shape check, not a sandbox and not a claim of complete JSON Schema coverage (seed 000 §5).
// Regexes of a schema (`pattern`, `patternProperties`) never reach RegExp as written: validate-patterns.ts runs them
// with the linear-time engine first.
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import { mapSchemaPatterns, PATTERN_HITS_MAX_CHARS, planPatterns } from './validate-patterns';

const ANNOTATION_ONLY: ReadonlySet<string> = new Set(['format']);

/** Wrapper keywords that only repeat a deeper, more precise error. */
const WRAPPERS = new Set([
  'properties',
  'items',
  'prefixItems',
  'allOf',
  '$ref',
  'false',
  'dependentSchemas',
  'unevaluatedProperties',
]);

const TOO_LARGE = (root: string) =>
  `At ${root}: E_SCHEMA_ARGS_TOO_LARGE: the strings that the schema's patterns apply to are too many or too long to check (more than ${PATTERN_HITS_MAX_CHARS} characters match one pattern). Nothing was run; send fewer or shorter strings.`;

export type SchemaCheck = (value: unknown) => string[];

/**
 * Compiles a JSON schema (draft 2020-12) once. The returned check lists errors as `At <root>.<path>: <reason>`,
 * most precise first; an empty list means valid.
 */
export function compileSchema(given: Record<string, unknown> | boolean, root = 'value'): SchemaCheck {
  // `format` is an annotation in draft 2020-12 unless a schema opts into format assertion; cfworker asserts it with
  // its own regexes, and its "url" regex backtracks exponentially ("http://" and 28 letters and a "!" took 2 s, each
  // letter more doubles it) on arguments the model writes. Tool schemas come from MCP servers and bridge workers.
  const schema = mapSchemaPatterns(given, (p) => p, ANNOTATION_ONLY);
  const plan = planPatterns(schema, root);
  if (!plan) {
    const validator = new Validator(schema as never, '2020-12', false);
    return (value) => report(validator.validate(value).errors, root);
  }
  // Compiles the pattern-free form once, so a malformed schema still fails at registration.
  new Validator(plan.forValue(undefined).schema as never, '2020-12', false);
  return (value) => {
    if (plan.refusal.length > 0) return plan.refusal;
    const { schema: replaced, original, tooLarge } = plan.forValue(value);
    if (tooLarge) return [TOO_LARGE(root)];
    let errors: OutputUnit[];
    try {
      errors = new Validator(replaced as never, '2020-12', false).validate(value).errors;
    } catch (error) {
      // V8 refuses a stand-in regex it finds too large (hundreds of thousands of matching strings); its message
      // quotes the whole source, so it is replaced by a bounded sentence.
      if (!(error instanceof SyntaxError)) throw error;
      return [TOO_LARGE(root)];
    }
    return report(errors, root, original);
  };
}

function report(errors: OutputUnit[], root: string, original?: Map<string, string>): string[] {
  if (errors.length === 0) return [];
  const precise = errors.filter((e) => !WRAPPERS.has(e.keyword));
  return dedupe((precise.length > 0 ? precise : errors).map((e) => formatError(e, root, original)));
}

function formatError(e: OutputUnit, root: string, original?: Map<string, string>): string {
  const path = e.instanceLocation
    .replace(/^#/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('');
  let reason = e.error;
  // patternProperties errors quote the regex: show the schema's own pattern, not its stand-in.
  if (original) for (const [source, pattern] of original) reason = reason.split(`"${source}"`).join(`"${pattern}"`);
  return `At ${root}${path}: ${reason}`;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** A schema a tool may declare: an object schema (seed 000 §1: "参数 schema 必须为 object"). */
export function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    !Array.isArray(schema) &&
    (schema as Record<string, unknown>).type === 'object'
  );
}
