// The action grammar against the real sampler: the tiny model of random weights only (steer off), under the grammar built from the
// built-in tools' schemas, always replies with one JSON action that the protocol's parser accepts and whose
// arguments pass the tool's own schema check. Without the grammar the same model's reply is refused.
import { afterAll, describe, expect, it } from 'vitest';
import wasmPath from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { parseJsonAction } from '../agent/json-actions';
import { coreFileTools } from '../tools/builtin';
import { compileSchema } from '../tools';
import { BrowserModelEngine } from './engine';
import { actionGrammar } from './grammar';

const engine = new BrowserModelEngine();
/** A tool whose schema uses the rest of the covered subset: only optional members, enum, bounded array, minimum, anyOf. */
const pick = {
  name: 'pick',
  description: 'test',
  parameters: {
    type: 'object',
    properties: {
      mode: { enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string', maxLength: 5 }, maxItems: 3 },
      n: { type: 'integer', minimum: 1 },
      x: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
    },
    additionalProperties: false,
  },
};
const tools = [...coreFileTools().map((t) => t.schema), pick];
const names = new Set(tools.map((t) => t.name));
const checks = new Map(tools.map((t) => [t.name, compileSchema(t.parameters)]));

describe('the action grammar with a model of random weights', () => {
  afterAll(() => engine.unload());

  it('makes every reply a valid action whose arguments match the tool schema', async () => {
    await engine.load(new File([makeTinyGguf({ steer: false })], 'tiny.gguf'), {
      nCtx: 4096,
      wasmUrl: new URL(wasmPath, location.href).href,
    });
    const grammar = actionGrammar(tools);
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) {
      const out = await engine.generate({
        messages: [{ role: 'user', content: `task ${seed}` }],
        maxTokens: 1500,
        seed,
        grammar,
        signal: new AbortController().signal,
        onText: () => undefined,
      });
      const parsed = parseJsonAction(out.text, names);
      expect(parsed.ok, `${out.text} → ${JSON.stringify(parsed)}`).toBe(true);
      if (!parsed.ok) continue;
      kinds.add(parsed.action.type);
      if (parsed.action.type === 'tool_call')
        expect(checks.get(parsed.action.name)!(parsed.action.arguments)).toEqual([]);
    }
    expect(kinds.size).toBeGreaterThan(0);
    // This model prefers ask_user; with the other actions left out, its tool calls must be just as valid.
    const callsOnly = actionGrammar(tools, { askUser: false, final: false });
    for (let seed = 1; seed <= 3; seed++) {
      const out = await engine.generate({
        messages: [{ role: 'user', content: `call ${seed}` }],
        maxTokens: 3500,
        seed,
        grammar: callsOnly,
        signal: new AbortController().signal,
        onText: () => undefined,
      });
      const parsed = parseJsonAction(out.text, names);
      expect(parsed.ok && parsed.action.type === 'tool_call', `${out.text} → ${JSON.stringify(parsed)}`).toBe(true);
      if (parsed.ok && parsed.action.type === 'tool_call')
        expect(checks.get(parsed.action.name)!(parsed.action.arguments), out.text).toEqual([]);
    }
  }, 120_000);

  it('is needed: the same model without it does not produce an action', async () => {
    const out = await engine.generate({
      messages: [{ role: 'user', content: 'task 1' }],
      maxTokens: 64,
      seed: 1,
      signal: new AbortController().signal,
      onText: () => undefined,
    });
    expect(parseJsonAction(out.text, names).ok).toBe(false);
  });
});
