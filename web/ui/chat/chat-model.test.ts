import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/contracts';
import {
  chatItems,
  dollars,
  keepUnchanged,
  lastPromptIndex,
  prettyArgs,
  turnFigures,
  withLineBreaks,
} from './chat-model';

const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

describe('chat items from a history', () => {
  it('attaches each tool result to the call of the latest assistant message, even when ids repeat across turns', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'change it' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [call('call_1', 'read', { path: 'a.txt' })],
        reasoning_content: 'read first',
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a' },
      { role: 'assistant', content: null, tool_calls: [call('call_1', 'edit', { path: 'a.txt' })] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Error E_TOOL_REJECTED: the person refused.', _error: true },
      { role: 'user', content: 'No tool ran', _meta: { kind: 'batch_error' } },
      { role: 'assistant', content: 'Fine.' },
    ];
    const items = chatItems(messages);
    expect(items.map((i) => i.kind)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    const [, first, second] = items as Extract<(typeof items)[number], { kind: 'assistant' }>[];
    expect(first!.thinking).toBe('read first');
    expect(first!.tools[0]).toMatchObject({ name: 'read', result: { output: 'a', error: false } });
    expect(second!.tools[0]).toMatchObject({ name: 'edit', result: { error: true, code: 'E_TOOL_REJECTED' } });
  });

  it('shows tool images as their own item and user images with the text', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const items = chatItems([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: png } },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: png } }],
        _meta: { kind: 'tool_images', tool_call_id: 'c9' },
      },
    ]);
    expect(items).toEqual([
      { kind: 'user', index: 0, text: 'look', images: [png] },
      { kind: 'tool-images', index: 1, callId: 'c9', images: [png] },
    ]);
  });

  it('names the model of each answer, marks a stopped one, and marks the last assistant message of each turn', () => {
    const items = chatItems([
      { role: 'user', content: 'one' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('c1', 'read', { path: 'a' })],
        _provider: { protocol: 'openai', model: 'gpt-x' },
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'assistant', content: 'First.', _provider: { protocol: 'openai', model: 'gpt-x' } },
      { role: 'user', content: 'two' },
      {
        role: 'assistant',
        content: 'Half an ans',
        _provider: { protocol: 'anthropic', model: 'claude-y' },
        _stopped: {},
      },
    ]);
    const answers = items.filter((i) => i.kind === 'assistant');
    expect(answers.map((a) => [a.model, a.endsTurn === true, a.stopped === true])).toEqual([
      ['gpt-x', false, false],
      ['gpt-x', true, false],
      ['claude-y', true, true],
    ]);
  });

  it('pretty-prints JSON arguments and keeps text that is not JSON', () => {
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArgs('{"a":')).toBe('{"a":');
  });
});

describe('the prompt a running turn answers', () => {
  it('is the last message the person wrote, skipping tool images and batch notes', () => {
    const messages: Message[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: null, tool_calls: [call('c', 'view_image', { path: 'x.png' })] },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
      { role: 'user', content: [], _meta: { kind: 'tool_images', tool_call_id: 'c' } },
      { role: 'user', content: 'No tool ran', _meta: { kind: 'batch_error' } },
    ];
    expect(lastPromptIndex(messages)).toBe(2);
    expect(lastPromptIndex([])).toBe(-1);
  });
});

describe('stable items across reloads', () => {
  it('keeps the objects of unchanged items when the session is loaded again, and replaces what changed', () => {
    const history: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read it' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'read', { path: 'a' })] },
    ];
    const first = chatItems(history);
    // The next checkpoint: the same messages as new objects (a reload), the tool result, and the answer.
    const reloaded = structuredClone(history).concat([
      { role: 'tool', tool_call_id: 'c1', content: 'A' },
      { role: 'assistant', content: 'It says A.' },
    ]);
    const second = keepUnchanged(first, chatItems(reloaded));
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]); // its call now has a result
    expect(second[2]).toMatchObject({ kind: 'assistant', text: 'It says A.' });
    const third = keepUnchanged(second, chatItems(structuredClone(reloaded)));
    third.forEach((item, i) => expect(item).toBe(second[i]));
  });
});

describe('what the person sent', () => {
  it('shows the typed text in the bubble and attached files as names, not their content', () => {
    const items = chatItems([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Explain this' },
          {
            type: 'text',
            text: '[Workspace file src/a.ts, attached by the person with an @ mention: 12 bytes]\nexport const a = 1;',
          },
        ],
      },
    ]);
    expect(items[0]).toMatchObject({ kind: 'user', text: 'Explain this', files: ['src/a.ts'] });
  });
});

const compaction = {
  id: 'c0ffee',
  folded_messages: 30,
  folded_tool_results: 9,
  tokens_before: 15_200,
  tokens_after: 2_100,
  manual: false,
  at: 1,
};

describe('what the harness put in the history', () => {
  it('shows a compaction summary as a divider with its figures, never as a user bubble or a prompt', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: 'Summary of the earlier conversation:\n## Goal\nShip it.',
        _meta: { kind: 'compaction_summary', compaction },
      },
      { role: 'assistant', content: 'Working on it.' },
    ];
    const items = chatItems(messages);
    expect(items[0]).toEqual({ kind: 'compaction', index: 1, summary: '## Goal\nShip it.', info: compaction });
    expect(items.some((i) => i.kind === 'user')).toBe(false);
    expect(lastPromptIndex(messages)).toBe(-1);
  });

  it("keeps the summary's line breaks for Markdown, but not inside code or around blank lines", () => {
    expect(withLineBreaks('Goal: ship\nDecisions: none\n\n```\na\nb\n```\nEnd')).toBe(
      'Goal: ship  \nDecisions: none\n\n```\na\nb\n```  \nEnd',
    );
  });

  it('shows a summary saved before compactions had figures as a divider without them', () => {
    const items = chatItems([
      { role: 'user', content: 'Summary of the earlier conversation:\nold', _meta: { kind: 'compaction_summary' } },
      {
        role: 'user',
        content: 'Summary of the earlier conversation:\nodd',
        _meta: { kind: 'compaction_summary', compaction: { id: 'x', folded_messages: '3' } },
      },
    ]);
    expect(items).toEqual([
      { kind: 'compaction', index: 0, summary: 'old' },
      { kind: 'compaction', index: 1, summary: 'odd' },
    ]);
  });

  it('shows AGENTS.md as a project-instructions item holding the file text', () => {
    const items = chatItems([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content:
          'Project instructions from AGENTS.md in the workspace root (…):\n<workspace_file path="AGENTS.md">\nUse tabs.\nRun npm test.\n</workspace_file>',
        _meta: {
          kind: 'project_instructions',
          source: 'AGENTS.md',
          workspace_content: true,
          untrusted: true,
          truncated: false,
        },
      },
      { role: 'user', content: 'hello' },
    ]);
    expect(items[0]).toEqual({
      kind: 'context',
      index: 1,
      context: 'instructions',
      text: 'Use tabs.\nRun npm test.',
      source: 'AGENTS.md',
    });
    expect(items[1]).toMatchObject({ kind: 'user', text: 'hello' });
  });

  it('labels memory/skills snapshots and deltas by what they hold, and counts their entries', () => {
    const items = chatItems([
      {
        role: 'user',
        content: 'Context snapshot: untrusted data.\nMemory of this workspace:\n- lang: ts',
        _meta: { kind: 'context_snapshot', untrusted: true, items: { 'memory/lang': 'ts', 'memory/os': 'linux' } },
      },
      {
        role: 'user',
        content: 'Context snapshot: untrusted data.\n(no memory and no skills)',
        _meta: { kind: 'context_snapshot', untrusted: true, items: {} },
      },
      {
        role: 'user',
        content: 'Context update: x.\nSkills added or changed:\n- pdf: read PDFs',
        _meta: { kind: 'context_delta', untrusted: true, upsert: { 'skill/pdf': 'read PDFs' }, remove: [] },
      },
      {
        role: 'user',
        content: 'Context update: x.\nMemory removed: os',
        _meta: { kind: 'context_delta', untrusted: true, upsert: { 'skill/pdf': 'v2' }, remove: ['memory/os'] },
      },
    ]);
    expect(items.map((i) => (i.kind === 'context' ? [i.context, i.count, i.text] : i.kind))).toEqual([
      ['snapshot.memory', 2, 'Memory of this workspace:\n- lang: ts'],
      ['snapshot.empty', 0, '(no memory and no skills)'],
      ['delta.skills', 1, 'Skills added or changed:\n- pdf: read PDFs'],
      ['delta.both', 2, 'Memory removed: os'],
    ]);
  });

  it('keeps context items out of a turn: the answer after a mid-turn delta still ends the turn, and the prompt is the typed one', () => {
    const messages: Message[] = [
      { role: 'user', content: 'remember my language' },
      { role: 'assistant', content: null, tool_calls: [call('m1', 'memory_write', { key: 'lang' })] },
      { role: 'tool', tool_call_id: 'm1', content: 'ok' },
      {
        role: 'user',
        content: 'Context update: x.\nMemory set:\n- lang: ts',
        _meta: { kind: 'context_delta', untrusted: true, upsert: { 'memory/lang': 'ts' }, remove: [] },
      },
      { role: 'assistant', content: 'Remembered.' },
    ];
    const items = chatItems(messages);
    expect(items.filter((i) => i.kind === 'assistant').map((a) => a.endsTurn === true)).toEqual([false, true]);
    expect(lastPromptIndex(messages)).toBe(0);
  });
});

describe('what the log keeps beyond the model view', () => {
  const usage = (input: number, output: number) => ({
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reported: { input: true, output: true, cache: true },
    duration_ms: 10,
    protocol: 'openai',
    model: 'm',
  });

  it('gives a tool result its full text when the model saw only a preview', () => {
    const full = 'x'.repeat(10_000);
    const items = chatItems([
      { role: 'assistant', content: null, tool_calls: [call('r1', 'read', { path: 'big.txt' })] },
      {
        role: 'tool',
        tool_call_id: 'r1',
        content: 'xxx\n[result truncated: 512 of 10000 bytes shown. Read the rest with read_result {}]',
        _full_output: full,
      },
    ]);
    const tool = (items[0] as Extract<(typeof items)[number], { kind: 'assistant' }>).tools[0]!;
    expect(tool.result?.full).toBe(full);
    expect(tool.result?.output).toContain('[result truncated');
  });

  it('gives a tool result the approval rule that decided it (and none when a person or the mode did)', () => {
    const rule = { decision: 'allow', tool: 'edit', path: 'src/**', scope: 'workspace', index: 0 };
    const items = chatItems([
      {
        role: 'assistant',
        content: null,
        tool_calls: [call('e1', 'edit', { path: 'src/a.ts' }), call('e2', 'edit', { path: 'b.ts' })],
      },
      { role: 'tool', tool_call_id: 'e1', content: 'ok', _approval: { by: 'rule', rule } },
      { role: 'tool', tool_call_id: 'e2', content: 'ok', _approval: { by: 'person' }, _outside_undo: true },
    ]);
    const tools = (items[0] as Extract<(typeof items)[number], { kind: 'assistant' }>).tools;
    expect(tools[0]!.result?.rule).toEqual(rule);
    expect(tools[1]!.result?.rule).toBeUndefined();
    // A tool that ran outside the app says its changes are not in the undo history.
    expect([tools[0]!.result?.outsideUndo, tools[1]!.result?.outsideUndo]).toEqual([undefined, true]);
  });

  it('puts the usage of every call of a turn on its answer', () => {
    const items = chatItems([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'read', { path: 'a' })], _usage: usage(100, 5) },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'assistant', content: 'Done.', _usage: usage(120, 7) },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'Again.' },
    ]);
    const answers = items.filter((i) => i.kind === 'assistant');
    expect(answers.map((a) => a.turnUsage?.map((u) => u.input_tokens))).toEqual([undefined, [100, 120], undefined]);
    expect(answers[0]!.usage?.output_tokens).toBe(5);
  });
});

describe('what a turn cost', () => {
  const step = (model: string, input: number, output: number, read = 0, reported = true) => ({
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: read,
    cache_write_tokens: 0,
    reported: { input: reported, output: true, cache: reported },
    duration_ms: 1000,
    protocol: 'openai',
    model,
  });
  const prices = { as_of: '2026-01-01', prices: [{ model: 'priced', input: 2, output: 8, cache_read: 0.5 }] };

  it('sums the calls and prices each by its model, cache reads at the cache price', () => {
    const f = turnFigures([step('priced', 1_000_000, 100_000, 500_000), step('priced', 0, 0)], prices);
    expect(f).toMatchObject({
      input: 1_000_000,
      output: 100_000,
      cacheRead: 500_000,
      ms: 2000,
      partial: false,
      models: ['priced'],
    });
    // 500k plain input at $2/M + 500k cached at $0.5/M + 100k output at $8/M
    expect(f.cost).toBeCloseTo(1 + 0.25 + 0.8, 10);
  });

  it('has no cost without a price (never a guess) and marks a cost that leaves unpriced calls out', () => {
    expect(turnFigures([step('other', 10, 10)], prices).cost).toBeNull();
    expect(turnFigures([step('priced', 10, 10)], null).cost).toBeNull();
    expect(turnFigures([step('priced', 1_000_000, 0), step('other', 10, 10)], prices)).toMatchObject({
      cost: 2,
      partial: true,
    });
  });

  it('marks figures the provider did not report as estimates', () => {
    expect(turnFigures([step('m', 1, 1), step('m', 1, 1, 0, false)], null).estimated).toEqual({
      input: true,
      output: false,
      cache: true,
    });
    expect(turnFigures([step('m', 1, 1)], null).estimated).toEqual({ input: false, output: false, cache: false });
  });

  it('says dollars in cents, and fractions of a cent with four decimals', () => {
    expect([dollars(0), dollars(0.0042), dollars(1.2345)]).toEqual(['$0.00', '$0.0042', '$1.23']);
  });
});
