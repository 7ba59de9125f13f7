// The /context view on a realistic session: each part is the budget's estimate of the messages its writer marked,
// tools per source, images apart, and `would_fold` is exactly what planCut would fold with the same keep_recent.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, estimateBudget, estimateBytes } from './budget';
import type { BudgetSettings } from '../hooks';
import { contextMessagesToAppend, planCut, projectInstructionsMessage, snapshotMessage } from '../modules';
import type { Message, ToolSchema } from '../contracts/messages';
import { contextBreakdown, createContextMeter } from '.';

const BUDGET: BudgetSettings = { ...DEFAULT_BUDGET, context_window: 32_000, max_tokens: 2_000 };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const schema = (name: string): ToolSchema => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
});

function session(): Message[] {
  const snapshot = snapshotMessage({
    'memory/build': 'npm run build',
    'memory/style': 'two spaces',
    'skill/release': 'Cut a release [source: .agents/skills]',
  });
  const head: Message[] = [
    { role: 'system', content: 'You are i, a coding agent.' },
    projectInstructionsMessage('# Rules\nRun the tests before committing.')!,
    snapshot,
  ];
  const out: Message[] = [...head];
  for (let i = 0; i < 6; i++) {
    out.push({ role: 'user', content: `Fix bug ${i} in src/mod${i}.ts` });
    out.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"src/mod${i}.ts"}` } },
      ],
    });
    out.push({ role: 'tool', tool_call_id: `c${i}`, content: `export const v${i} = ${i};\n`.repeat(10) });
    if (i === 2)
      out.push({
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: PNG } }],
        _meta: { kind: 'tool_images', tool_call_id: `c${i}` },
      });
    out.push({ role: 'assistant', content: `Fixed bug ${i}.` });
  }
  // Memory changed mid-session: a delta (one memory entry changed, the skill removed).
  out.push(
    ...contextMessagesToAppend(out, { memory: { build: 'npm run build:all', style: 'two spaces' }, skills: [] }),
  );
  out.push({
    role: 'user',
    content: [
      { type: 'text', text: 'What does this screenshot show?' },
      { type: 'image_url', image_url: { url: PNG } },
    ],
  });
  return out;
}

const TOOLS = [
  { source: 'builtin' as const, schema: schema('read') },
  { source: 'builtin' as const, schema: schema('write') },
  { source: 'plugins' as const, schema: schema('wasm_grep') },
  { source: 'mcp' as const, schema: schema('github_issue') },
];

describe('context breakdown', () => {
  const history = session();
  const b = contextBreakdown({ history, tools: TOOLS, budget: BUDGET, keepRecent: 4 });
  const part = (kind: string) => b.parts.find((p) => p.kind === kind)!;

  it('gives the system prompt, AGENTS.md, memory and skills their own parts with what the model knows now', () => {
    expect(part('system')).toEqual({ kind: 'system', tokens: estimateBytes([history[0]!], BUDGET), items: 1 });
    expect(part('instructions')).toEqual({
      kind: 'instructions',
      tokens: estimateBytes([history[1]!], BUDGET),
      items: 1,
    });
    const contextMessages = history.filter((m) => m.role === 'user' && String(m._meta?.kind).startsWith('context_'));
    expect(contextMessages).toHaveLength(2);
    expect(part('memory').tokens + part('skills').tokens).toBe(estimateBytes(contextMessages, BUDGET));
    expect(part('memory').tokens).toBeGreaterThan(part('skills').tokens);
    expect(part('skills').tokens).toBeGreaterThan(0);
    // After the delta the model knows two memory entries and no skill.
    expect(part('memory').items).toBe(2);
    expect(part('skills').items).toBe(0);
  });

  it('counts tool schemas per source and images apart from the history text', () => {
    expect(part('tools:builtin')).toMatchObject({
      items: 2,
      tokens: estimateBudget(BUDGET, [], [schema('read'), schema('write')], 0, null).estimate,
    });
    expect(part('tools:plugins').items).toBe(1);
    expect(part('tools:mcp').items).toBe(1);
    expect(part('tools:bridge')).toMatchObject({ items: 0, tokens: 0 });
    expect(part('images')).toEqual({ kind: 'images', tokens: 2 * BUDGET.image_tokens, items: 2 });
    const rest = history.slice(3).filter((m) => !(m.role === 'user' && String(m._meta?.kind).startsWith('context_')));
    expect(part('history')).toEqual({
      kind: 'history',
      tokens: estimateBytes(rest, { ...BUDGET, image_tokens: 0 }),
      items: rest.length,
    });
  });

  it('sums to the meter size for one tool source, and says what a compaction would fold now', () => {
    const single = contextBreakdown({ history, tools: TOOLS.slice(0, 2), budget: BUDGET });
    const total = single.parts.reduce((s, p) => s + p.tokens, 0);
    expect(single.size).toEqual(
      createContextMeter({ budget: BUDGET, tools: [schema('read'), schema('write')] }).reset(history),
    );
    expect(total).toBe(single.size.tokens);
    const cut = planCut(history, 4)!;
    const folded = history.slice(2, cut);
    expect(b.would_fold).toEqual({
      messages: folded.length,
      tool_results: folded.filter((m) => m.role === 'tool').length,
      tokens: estimateBytes(folded, BUDGET),
    });
    expect(b.would_fold!.tool_results).toBeGreaterThan(0);
  });

  it('has no fold when nothing is old enough, and no window without a budget', () => {
    const short = history.slice(0, 5);
    const none = contextBreakdown({ history: short, tools: [], budget: null, keepRecent: 4 });
    expect(none.would_fold).toBeNull();
    expect(none.size).toMatchObject({ window: null, trigger: null });
  });
});
