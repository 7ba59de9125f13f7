import { describe, expect, it } from 'vitest';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { editTool, readTool, writeTool } from '../agent/__fixtures__/tools';
import { HookPipeline } from '../hooks';
import type { ToolDefinition } from '../contracts/tools';
import { memoryFs } from '../agent/__fixtures__/memory-fs';
import type { ApprovalRequest } from './types';

const writeThenStop = [{ tool_calls: [call('w1', 'write', { path: 'out.txt', text: 'x' })] }, { content: 'ok' }];
const policy = (answer: unknown, fail = false) => {
  const hooks = new HookPipeline();
  hooks.register({
    name: 'policy',
    source: 'profile',
    events: ['tool_approval'],
    handle: (_e, d) => {
      if (fail) throw new Error('policy crashed');
      return { ...(d as object), decision: answer };
    },
  });
  return hooks;
};

describe('approval gate', () => {
  it('runs read without asking but asks before write (mode ask), and runs write once the person allows', async () => {
    const asked: ApprovalRequest[] = [];
    const log: string[] = [];
    const run = await runScripted(
      [
        { tool_calls: [call('r1', 'read', { path: 'a' }), call('w1', 'write', { path: 'out.txt', text: 'x' })] },
        { content: 'ok' },
      ],
      { tools: [readTool(log), writeTool(log)], files: { a: 'A' }, askPerson: async (r) => (asked.push(r), 'allow') },
    );
    expect(asked.map((r) => [r.name, r.arguments])).toEqual([['write', { path: 'out.txt', text: 'x' }]]);
    expect(log).toEqual(['read a', 'write out.txt']);
    expect(run.events.filter((e) => e.type === 'approval-needed')).toHaveLength(1);
    expect(run.events.filter((e) => e.type === 'approval').map((e) => (e.type === 'approval' ? e.by : ''))).toEqual([
      'free',
      'person',
    ]);
  });

  it('returns a declined call to the model as a tool error and continues the turn', async () => {
    const log: string[] = [];
    const run = await runScripted(writeThenStop, { tools: [writeTool(log)], askPerson: async () => 'deny' });
    expect(log).toEqual([]);
    expect(run.model.calls[1]!.input.history.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'w1', _error: true });
    expect(run.result.stopReason).toBe('stop');
    expect(run.result.toolCalls[0]).toMatchObject({ ran: false, code: 'E_TOOL_REJECTED' });
  });

  it('stops a turn waiting on an approval port that ignores the abort signal', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const run = await runScripted(writeThenStop, {
      tools: [writeTool(log)],
      signal: controller.signal,
      askPerson: () => {
        setTimeout(() => controller.abort(), 10);
        return new Promise(() => {});
      },
    });
    expect(log).toEqual([]);
    expect(run.result.stopReason).toBe('aborted');
  });

  it('refuses tools that need approval when nobody can approve (headless without --yolo)', async () => {
    const log: string[] = [];
    const run = await runScripted(writeThenStop, { tools: [writeTool(log)] });
    expect(log).toEqual([]);
    expect(String(run.model.calls[1]!.input.history.at(-1)!.content)).toMatch(/E_APPROVAL_REQUIRED.*--yolo/);
  });

  it('runs everything without asking under yolo and under mode auto', async () => {
    for (const approval of [{ yolo: true }, { mode: 'auto' as const }]) {
      const log: string[] = [];
      await runScripted(writeThenStop, { tools: [writeTool(log)], approval, askPerson: async () => 'deny' });
      expect(log).toEqual(['write out.txt']);
    }
  });

  it('never runs a deny_tools tool, not even under yolo or an allowing policy', async () => {
    const log: string[] = [];
    const run = await runScripted(writeThenStop, {
      tools: [writeTool(log)],
      approval: { yolo: true, deny_tools: ['write'] },
      hooks: policy('allow'),
    });
    expect(log).toEqual([]);
    expect(run.result.toolCalls[0]).toMatchObject({ code: 'E_TOOL_DENIED' });
  });

  it('asks for external tools even when they declare themselves free', async () => {
    const log: string[] = [];
    const plugin: ToolDefinition = {
      ...readTool(log),
      schema: { ...readTool().schema, name: 'plugin_read' },
      external: true,
    };
    let asked = 0;
    await runScripted([{ tool_calls: [call('p1', 'plugin_read', { path: 'a' })] }, { content: 'ok' }], {
      tools: [plugin],
      files: { a: 'A' },
      askPerson: async () => (asked++, 'deny'),
    });
    expect(asked).toBe(1);
    expect(log).toEqual([]);
  });

  it('lets a policy allow, ask or deny, and denies on an invalid or failed answer', async () => {
    const cases: Array<[HookPipeline, boolean, number]> = [
      [policy('allow'), true, 0],
      [policy('ask'), true, 1],
      [policy('deny'), false, 0],
      [policy('sure!'), false, 0],
      [policy('allow', true), false, 0],
    ];
    for (const [hooks, ran, asks] of cases) {
      const log: string[] = [];
      let asked = 0;
      const run = await runScripted(writeThenStop, {
        tools: [writeTool(log)],
        hooks,
        askPerson: async () => (asked++, 'allow'),
      });
      expect([log.length > 0, asked]).toEqual([ran, asks]);
      if (!ran) expect(run.result.toolCalls[0]!.error).toBe(true);
    }
  });

  it('gives the policy {name, arguments as an object, external, decision}', async () => {
    const hooks = new HookPipeline();
    let seen: unknown;
    hooks.register({ name: 'spy', source: 'profile', events: ['tool_approval'], handle: (_e, d) => ((seen = d), d) });
    await runScripted(writeThenStop, { tools: [writeTool()], hooks });
    expect(seen).toEqual({
      name: 'write',
      arguments: { path: 'out.txt', text: 'x' },
      external: false,
      decision: 'ask',
    });
  });
});

describe('edit conflict detection', () => {
  it('refuses an edit when the file changed while the approval was pending, and applies it when unchanged', async () => {
    for (const changeMeanwhile of [true, false]) {
      const log: string[] = [];
      const fs = memoryFs({ 'f.txt': 'a-original' });
      const run = await runScripted(
        [{ tool_calls: [call('e1', 'edit', { path: 'f.txt', old: 'a', new: 'b' })] }, { content: 'ok' }],
        {
          tools: [editTool(log)],
          fs,
          askPerson: async (req) => {
            expect(req.prepared?.summary).toBe('Edit f.txt');
            if (changeMeanwhile) await fs.writeText('f.txt', 'a-changed-by-someone');
            return 'allow';
          },
        },
      );
      const text = new TextDecoder().decode(fs.files.get('f.txt'));
      if (changeMeanwhile) {
        expect(text).toBe('a-changed-by-someone');
        expect(run.result.toolCalls[0]).toMatchObject({ ran: true, error: true, code: 'E_EDIT_CONFLICT' });
        expect(String(run.model.calls[1]!.input.history.at(-1)!.content)).toContain(
          'changed after the edit was prepared',
        );
      } else {
        expect(text).toBe('b-original');
        expect(log).toEqual(['edit f.txt']);
      }
    }
  });
});
