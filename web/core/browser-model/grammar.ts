// The GBNF grammar (llama.cpp grammars, as wllama's `grammar` sampling parameter takes them) that holds an
// in-browser model to the JSON action protocol (web/core/agent/json-actions): exactly one compact action object —
// a tool_call naming a visible tool with arguments shaped by that tool's JSON schema, a final, or an ask_user.
// Even a model of random weights then emits something `parseJsonAction` accepts. The schema subset covered is
// what tool schemas use (object/properties/required, string, integer, number, boolean, enum, const, array,
// anyOf/oneOf); anything else becomes "any JSON value", which the tool's own argument check still judges.
import type { ToolSchema } from '../contracts';

type Schema = Record<string, unknown>;

/** Longest strings/arrays a grammar spells out; beyond this a repetition is left open (`*`). */
const MAX_SPELLED = 64;

const lit = (s: string) => JSON.stringify(s);
/** A JSON literal (e.g. `"read"` or `3`) as a GBNF terminal: the JSON text itself, quoted for GBNF. */
const jsonLit = (v: unknown) => lit(JSON.stringify(v));

const COMMON = [
  // One string character: anything but a quote, a backslash, a control character or half a surrogate pair (UTF-8
  // cannot carry one), or a JSON escape. A negated class: llama.cpp checks it much faster than a list of ranges.
  'char ::= [^"\\\\\\x00-\\x1f\\uD800-\\uDFFF] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
  'string ::= "\\"" char* "\\""',
  'integer ::= "-"? ("0" | [1-9] [0-9]{0,15})',
  'number ::= integer ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?',
  'boolean ::= "true" | "false"',
  'value ::= object | array | string | number | boolean | "null"',
  'object ::= "{" ( string ":" value ( "," string ":" value )* )? "}"',
  'array ::= "[" ( value ( "," value )* )? "]"',
];

class RuleSet {
  readonly rules: string[] = [];
  private n = 0;
  add(prefix: string, body: string): string {
    const name = `${prefix}-${this.n++}`;
    this.rules.push(`${name} ::= ${body}`);
    return name;
  }
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringRule(s: Schema): string {
  const max = typeof s.maxLength === 'number' ? s.maxLength : undefined;
  const min = typeof s.minLength === 'number' ? Math.min(s.minLength, MAX_SPELLED) : 0;
  if (max !== undefined && max <= MAX_SPELLED) return `"\\"" char{${min},${Math.max(min, max)}} "\\""`;
  return min > 0 ? `"\\"" char{${min},} "\\""` : 'string';
}

/** The rule (an expression) for one schema. */
function schemaRule(s: unknown, rs: RuleSet, depth = 0): string {
  if (!isObject(s) || depth > 8) return 'value';
  if ('const' in s) return jsonLit(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return `(${s.enum.map(jsonLit).join(' | ')})`;
  const alts = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null) as unknown[] | null;
  if (alts?.length) return `(${alts.map((a) => schemaRule(a, rs, depth + 1)).join(' | ')})`;
  const type = Array.isArray(s.type) ? s.type : [s.type];
  const parts = type.map((t) => typedRule(t, s, rs, depth));
  return parts.length === 1 ? parts[0]! : `(${parts.join(' | ')})`;
}

function typedRule(type: unknown, s: Schema, rs: RuleSet, depth: number): string {
  switch (type) {
    case 'string':
      return stringRule(s);
    case 'integer':
      if (typeof s.minimum === 'number' && s.minimum >= 1) return '([1-9] [0-9]{0,15})';
      return typeof s.minimum === 'number' && s.minimum >= 0 ? '("0" | [1-9] [0-9]{0,15})' : 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return '"null"';
    case 'array': {
      const item = rs.add('item', schemaRule(s.items, rs, depth + 1));
      const min = typeof s.minItems === 'number' ? s.minItems : 0;
      const max = typeof s.maxItems === 'number' && s.maxItems <= MAX_SPELLED ? s.maxItems : undefined;
      if (max === 0) return '"[" "]"';
      const more = max !== undefined ? `("," ${item}){${Math.max(0, min - 1)},${max - 1}}` : `("," ${item})*`;
      return min > 0 ? `"[" ${item} ${more} "]"` : `"[" (${item} ${more})? "]"`;
    }
    case 'object':
      return objectRule(s, rs, depth);
    default:
      return 'value';
  }
}

/** Properties in schema order: required ones always, optional ones may be left out; no unknown keys. */
function objectRule(s: Schema, rs: RuleSet, depth: number): string {
  const props = isObject(s.properties) ? Object.entries(s.properties) : [];
  if (!props.length) return s.additionalProperties === false ? '"{" "}"' : 'object';
  const required = new Set(
    Array.isArray(s.required) ? (s.required as unknown[]).filter((r): r is string => typeof r === 'string') : [],
  );
  const member = ([key, sub]: [string, unknown]) => `${jsonLit(key)} ":" ${schemaRule(sub, rs, depth + 1)}`;
  const req = props.filter(([k]) => required.has(k));
  const opt = props.filter(([k]) => !required.has(k));
  if (req.length) {
    const head = req.map(member).join(' "," ');
    const tail = opt.map((p) => `("," ${member(p)})?`).join(' ');
    return `"{" ${head}${tail ? ` ${tail}` : ''} "}"`;
  }
  // Only optional members: whichever comes first carries no comma.
  const starts = opt.map((p, i) => [member(p), ...opt.slice(i + 1).map((q) => `("," ${member(q)})?`)].join(' '));
  return `"{" (${starts.map((x) => `(${x})`).join(' | ')})? "}"`;
}

export interface ActionGrammarOptions {
  /** Allow `ask_user` (default true). */
  askUser?: boolean;
  /** Allow `final` (default true); false with askUser false is "a tool call is required". */
  final?: boolean;
}

/**
 * The grammar for one request: the visible tools (by name, each with its own argument shape) plus final/ask_user.
 * Shaped for llama.cpp's sampler, whose cost per rejected token is one pass over the vocabulary for each parse
 * stack: the actions share their `{"type":"` prefix and the calls their `"name":"` (one stack, not one per
 * alternative, until the text tells them apart), and only rules the root reaches are emitted.
 */
export function actionGrammar(tools: readonly ToolSchema[], options: ActionGrammarOptions = {}): string {
  const rs = new RuleSet();
  // The quote that opens the name is shared; each call starts at its name's first character.
  const calls = tools.map((t) =>
    rs.add(
      'call',
      `${lit(`${JSON.stringify(t.name).slice(1)},"arguments":`)} ${schemaRule({ type: 'object', ...t.parameters }, rs)}`,
    ),
  );
  const actions: string[] = options.final === false && calls.length ? [] : ['final'];
  const lines: string[] = [];
  if (calls.length) {
    lines.push(`tool-call ::= "tool_call\\",\\"name\\":\\"" (${calls.join(' | ')}) "}"`);
    actions.unshift('tool-call');
  }
  // A final answer says something: an empty one would end the turn with nothing to show.
  lines.push('final ::= "final\\",\\"content\\":\\"" char+ "\\"}"');
  if (options.askUser !== false) {
    lines.push('ask-user ::= "ask_user\\",\\"question\\":\\"" char+ "\\"}"');
    actions.push('ask-user');
  }
  return reachable([`root ::= "{\\"type\\":\\"" (${actions.join(' | ')})`, ...lines, ...rs.rules, ...COMMON]).join(
    '\n',
  );
}

/** The rules `root` reaches: an unused rule costs llama.cpp parsing and memory on every request, and nothing else. */
function reachable(rules: string[]): string[] {
  const byName = new Map(rules.map((r) => [r.slice(0, r.indexOf(' ::= ')), r]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !byName.has(name)) return;
    seen.add(name);
    // Rule names are what is left once string literals and character classes are taken out.
    const body = byName
      .get(name)!
      .slice(name.length + 5)
      .replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, ' ');
    for (const ref of body.match(/[a-z][a-z0-9-]*/g) ?? []) visit(ref);
  };
  visit('root');
  return rules.filter((r) => seen.has(r.slice(0, r.indexOf(' ::= '))));
}
