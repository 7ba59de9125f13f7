// The action grammar's text, as llama.cpp will parse it: every rule it names is defined (llama.cpp refuses the
// whole grammar otherwise) and no rule is left over that the root never reaches (parsed on every request for
// nothing). Whether its output is a valid action is proved against the real sampler in grammar-in-chromium.
import { describe, expect, it } from 'vitest';
import { coreFileTools } from '../tools/builtin';
import { actionGrammar } from './grammar';

/** Rule name → the names its body refers to (string literals and character classes taken out). */
function parse(grammar: string) {
  const rules = new Map<string, string[]>();
  for (const line of grammar.split('\n')) {
    const [name, body] = line.split(' ::= ') as [string, string];
    const bare = body.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, ' ');
    rules.set(name, bare.match(/[a-z][a-z0-9-]*/g) ?? []);
  }
  return rules;
}

function reached(rules: Map<string, string[]>) {
  const seen = new Set<string>();
  const visit = (n: string) => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const r of rules.get(n) ?? []) visit(r);
  };
  visit('root');
  return seen;
}

const anyValueTool = {
  name: 'set',
  description: '',
  parameters: { type: 'object', properties: { key: { type: 'string' }, value: {} }, required: ['key'] },
};

describe('the action grammar text', () => {
  for (const [label, tools] of [
    ['the built-in tools', coreFileTools().map((t) => t.schema)],
    ['a tool taking any JSON value', [anyValueTool]],
    ['no tools', []],
  ] as const) {
    it(`defines every rule it names and nothing the root does not reach (${label})`, () => {
      const rules = parse(actionGrammar(tools));
      const seen = reached(rules);
      for (const name of seen) expect(rules.has(name), `rule ${name} is used but not defined`).toBe(true);
      expect([...rules.keys()].filter((n) => !seen.has(n))).toEqual([]);
    });
  }

  it('keeps the rules for any JSON value only when a schema needs one', () => {
    expect(parse(actionGrammar(coreFileTools().map((t) => t.schema))).has('value')).toBe(false);
    const withAny = parse(actionGrammar([anyValueTool]));
    for (const name of ['value', 'object', 'array', 'number', 'integer', 'boolean'])
      expect(withAny.has(name), name).toBe(true);
  });

  it('lets the actions share their opening text, so llama.cpp follows one parse stack until they differ', () => {
    const root = actionGrammar(coreFileTools().map((t) => t.schema)).split('\n')[0]!;
    expect(root).toBe('root ::= "{\\"type\\":\\"" (tool-call | final | ask-user)');
  });
});
