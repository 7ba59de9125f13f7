// The JSON action protocol through the real loop (scripted model): no `tools` field, the instructions and schemas
// in the request, a JSON tool_call taking the native batch/hook/approval/bounded-view path, results going back in
// the envelope, protocol errors answered as results within the step limit, and the session in the native shape.
import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL } from '../../approval';
import { createMemoryContentStore } from '../../context/memory-content-store';
import { HookPipeline } from '../../hooks';
import type { AssistantMessage, Message } from '../../contracts/messages';
import { ToolRegistry } from '../../tools/registry';
import { MODEL, runScripted } from '../__fixtures__/harness';
import { memoryFs } from '../__fixtures__/memory-fs';
import { scriptedModel } from '../__fixtures__/scripted-stream';
import { readTool, writeTool } from '../__fixtures__/tools';
import { runTurn } from '../loop';
import { turnResultViews } from '../result-views';

const JSON_MODEL = { tool_protocol: 'json' as const };
const act = (o: unknown) => ({ content: JSON.stringify(o) });
const envelopeOf = (m: Message | undefined) =>
  m?.role === 'user' && typeof m.content === 'string' ? JSON.parse(m.content) : null;

describe('the loop under tool_protocol "json"', () => {
  it('sends no tools, runs a JSON tool_call, returns the result in the envelope and ends with the final answer', async () => {
    const log: string[] = [];
    const run = await runScripted(
      [
        act({ type: 'tool_call', name: 'read', arguments: { path: 'a.txt' } }),
        { content: '```json\n{"type": "final", "content": "a.txt says hello"}\n```' },
      ],
      {
        tools: [readTool(log), writeTool(log)],
        files: { 'a.txt': 'hello' },
        model: JSON_MODEL,
      },
    );
    expect(run.result.error).toBeUndefined();
    expect(run.result.stopReason).toBe('stop');
    expect(run.result.text).toBe('a.txt says hello');
    expect(log).toEqual(['read a.txt']);
    const [first, second] = run.model.calls;
    for (const c of [first!, second!]) expect([c.input.tools, c.input.plugin_tools]).toEqual([[], []]);
    // The instructions with every schema, as a system message after the prompt (counted with the request).
    const instructions = first!.input.history[1]!;
    expect(instructions.role).toBe('system');
    expect(instructions.content).toContain('"type": "tool_call"');
    expect(instructions.content).toContain(
      JSON.stringify({ name: 'read', description: 'Read a file', parameters: readTool().schema.parameters }),
    );
    expect(instructions.content).toContain('"ask_user"');
    const h = second!.input.history;
    expect(h.at(-2)).toMatchObject({
      role: 'assistant',
      content: JSON.stringify({ type: 'tool_call', name: 'read', arguments: { path: 'a.txt' } }),
    });
    expect(h.at(-2)).not.toHaveProperty('tool_calls');
    expect(h.at(-1)).toEqual({
      role: 'user',
      content: '{"jingwei_tool_result":{"name":"read","ok":true,"output":"hello"},"untrusted_tool_data":true}',
    });
    expect(h.some((m) => m.role === 'tool')).toBe(false);
    // The session keeps the native shape (log, UI, undo unchanged) and records the protocol of each step.
    const saved = run.saves.at(-1)!;
    const call = saved.find((m): m is AssistantMessage => m.role === 'assistant' && !!m.tool_calls)!;
    expect(call.tool_calls![0]!.function).toEqual({ name: 'read', arguments: '{"path":"a.txt"}' });
    expect(call._provider).toMatchObject({ tool_protocol: 'json' });
    expect(saved.find((m) => m.role === 'tool')).toMatchObject({
      tool_call_id: call.tool_calls![0]!.id,
      content: 'hello',
    });
    expect(saved.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'a.txt says hello',
      _provider: { tool_protocol: 'json' },
    });
    expect(saved.some((m) => m.role === 'system' && m.content.includes('Tool protocol: JSON actions'))).toBe(false);
  });

  it('answers a malformed reply with the protocol error in the envelope, and the corrected reply runs', async () => {
    const log: string[] = [];
    const run = await runScripted(
      [
        'I will read a.txt now.',
        act({ type: 'tool_call', name: 'read', arguments: { path: 'a.txt' } }),
        act({ type: 'final', content: 'ok' }),
      ].map((r) => (typeof r === 'string' ? { content: r } : r)),
      {
        tools: [readTool(log)],
        files: { 'a.txt': 'hello' },
        model: JSON_MODEL,
      },
    );
    expect(run.result.text).toBe('ok');
    expect(run.result.steps).toBe(3);
    expect(log).toEqual(['read a.txt']);
    const error = envelopeOf(run.model.calls[1]!.input.history.at(-1));
    expect(error).toMatchObject({
      jingwei_tool_result: { name: 'json_action_protocol', ok: false },
      untrusted_tool_data: true,
    });
    expect(error.jingwei_tool_result.output).toMatch(
      /^Error E_JSON_ACTION_NO_JSON: .*Reply with exactly one JSON object/,
    );
    expect(run.model.calls[1]!.input.history.at(-2)).toMatchObject({
      role: 'assistant',
      content: 'I will read a.txt now.',
    });
    expect(run.events.find((e) => e.type === 'warning')).toMatchObject({ error: { code: 'E_JSON_ACTION_NO_JSON' } });
  });

  it('never turns malformed replies into a final answer: they count as steps up to the step limit', async () => {
    const run = await runScripted(
      [{ content: 'plain answer' }, { content: '{"type": "final"}' }, { content: 'never asked' }],
      { model: JSON_MODEL, maxSteps: 2 },
    );
    expect(run.result.stopReason).toBe('step_limit');
    expect(run.result.error?.code).toBe('E_STEP_LIMIT');
    expect(run.model.calls).toHaveLength(2);
  });

  it('ends the turn with the question of ask_user as the answer shown to the person', async () => {
    const run = await runScripted([act({ type: 'ask_user', question: 'Which file do you mean?' })], {
      model: JSON_MODEL,
    });
    expect([run.result.stopReason, run.result.text]).toEqual(['stop', 'Which file do you mean?']);
  });

  it('asks for approval as on the native path: refused without a person, allowed by one, the verdict in the envelope', async () => {
    const replies = () => [
      act({ type: 'tool_call', name: 'write', arguments: { path: 'b.txt', text: 'x' } }),
      act({ type: 'final', content: 'done' }),
    ];
    const refused = await runScripted(replies(), { tools: [writeTool()], model: JSON_MODEL });
    expect(refused.result.toolCalls.map((c) => [c.name, c.ran, c.code])).toEqual([
      ['write', false, 'E_APPROVAL_REQUIRED'],
    ]);
    expect(envelopeOf(refused.model.calls[1]!.input.history.at(-1)).jingwei_tool_result).toMatchObject({
      name: 'write',
      ok: false,
      output: expect.stringContaining('E_APPROVAL_REQUIRED'),
    });
    const asked: string[] = [];
    const allowed = await runScripted(replies(), {
      tools: [writeTool()],
      model: JSON_MODEL,
      askPerson: async (req) => (asked.push(req.name), 'allow' as const),
    });
    expect(asked).toEqual(['write']);
    expect(new TextDecoder().decode(allowed.fs.files.get('b.txt'))).toBe('x');
    expect(envelopeOf(allowed.model.calls[1]!.input.history.at(-1)).jingwei_tool_result).toEqual({
      name: 'write',
      ok: true,
      output: 'written',
    });
  });

  it('gives before_tool the raw JSON arguments string, and a hook may rewrite the call', async () => {
    const hooks = new HookPipeline();
    const seen: unknown[] = [];
    hooks.register({
      name: 'spy',
      source: 'profile',
      events: ['before_tool'],
      handle: (_e, d) => (seen.push(structuredClone(d)), { ...(d as object), arguments: '{"path":"b.txt"}' }),
    });
    const run = await runScripted(
      [act({ type: 'tool_call', name: 'read', arguments: { path: 'a.txt' } }), act({ type: 'final', content: 'ok' })],
      {
        tools: [readTool()],
        files: { 'a.txt': 'A', 'b.txt': 'B' },
        hooks,
        model: JSON_MODEL,
      },
    );
    expect(seen).toMatchObject([{ name: 'read', arguments: '{"path":"a.txt"}' }]);
    expect(typeof (seen[0] as { id: unknown }).id).toBe('string');
    expect(envelopeOf(run.model.calls[1]!.input.history.at(-1)).jingwei_tool_result.output).toBe('B');
  });

  it('shows a long result as its bounded view in the envelope; the session keeps it whole', async () => {
    const big = Array.from({ length: 600 }, (_, i) => `line ${i}`).join('\n');
    const tools = new ToolRegistry();
    tools.register(readTool());
    const model = scriptedModel([
      act({ type: 'tool_call', name: 'read', arguments: { path: 'big.txt' } }),
      act({ type: 'final', content: 'ok' }),
    ]);
    const store = createMemoryContentStore({
      storeId: 'json-views',
      maxEntries: 16,
      maxBytes: 1 << 20,
      maxContentBytes: 1 << 16,
      maxPageBytes: 4096,
      maxTtlMs: 60_000,
    });
    const stream = runTurn(
      { model: { ...MODEL, ...JSON_MODEL }, history: [], content: 'go' },
      {
        stream: model.stream,
        tools,
        hooks: new HookPipeline(),
        approval: DEFAULT_APPROVAL,
        fs: memoryFs({ 'big.txt': big }),
        workspaceId: 'ws',
        results: turnResultViews({ store, sessionId: 's' }),
      },
    );
    const result = await stream.result();
    const shown = envelopeOf(model.calls[1]!.input.history.at(-1)).jingwei_tool_result.output as string;
    expect(shown.length).toBeLessThan(big.length);
    expect(shown).toContain('read_result');
    expect(result.messages.find((m) => m.role === 'tool')).toMatchObject({ _full_output: big });
  });

  it('sends a compaction summary request without native tool messages: calls and results in their JSON form', async () => {
    const calls = {
      role: 'assistant' as const,
      content: null,
      tool_calls: [
        { id: 'json_1_x', type: 'function' as const, function: { name: 'read', arguments: '{"path":"a.txt"}' } },
      ],
      _provider: {
        protocol: 'openai',
        model: 'm',
        tool_protocol: 'json' as const,
        json_reply: '{"type":"tool_call","name":"read","arguments":{"path":"a.txt"}}',
      },
    };
    const history: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'first question '.repeat(40) },
      calls,
      { role: 'tool', tool_call_id: 'json_1_x', content: 'hello' },
      { role: 'assistant', content: 'a.txt says hello' },
      ...['second', 'third', 'fourth'].flatMap((t): Message[] => [
        { role: 'user', content: t },
        { role: 'assistant', content: t },
      ]),
    ];
    const run = await runScripted([{ content: 'Goal: read a.txt.' }], { history, compact: {}, model: JSON_MODEL });
    expect(run.result.stopReason).toBe('stop');
    const sent = run.model.calls[0]!.input.history;
    expect(sent.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.tool_calls))).toBe(false);
    expect(sent).toContainEqual({
      role: 'user',
      content: '{"jingwei_tool_result":{"name":"read","ok":true,"output":"hello"},"untrusted_tool_data":true}',
    });
  });
});
