import { describe, expect, it } from 'vitest';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { readTool, writeTool } from './__fixtures__/tools';
import { markedToolContent } from './native-marks';

describe('the agent loop', () => {
  it('runs tool calls across steps until the model stops, feeding results back and checkpointing each step', async () => {
    const log: string[] = [];
    const run = await runScripted(
      [
        {
          content: 'Let me look.',
          tool_calls: [call('c1', 'read', { path: 'a.txt' }), call('c2', 'read', { path: 'b.txt' })],
        },
        { tool_calls: [call('c3', 'write', { path: 'c.txt', text: 'A+B' })] },
        { content: 'Done: wrote c.txt.' },
      ],
      { tools: [readTool(log), writeTool(log)], files: { 'a.txt': 'AAA', 'b.txt': 'BBB' }, approval: { yolo: true } },
    );
    expect(run.result.stopReason).toBe('stop');
    expect(run.result.error).toBeUndefined();
    expect(run.result.text).toBe('Done: wrote c.txt.');
    expect(run.result.steps).toBe(3);
    expect(log).toEqual(['read a.txt', 'read b.txt', 'write c.txt']);
    expect(new TextDecoder().decode(run.fs.files.get('c.txt'))).toBe('A+B');
    // The second request carries both tool results, in call order, after the assistant's calls.
    const second = run.model.calls[1]!.input.history;
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(second.slice(3)).toMatchObject([
      { tool_call_id: 'c1', content: markedToolContent('AAA') },
      { tool_call_id: 'c2', content: markedToolContent('BBB') },
    ]);
    expect(run.model.calls[0]!.input.tools.map((t) => t.name)).toEqual(['read', 'write']);
    expect(run.result.toolCalls.map((c) => [c.id, c.ran, c.error])).toEqual([
      ['c1', true, false],
      ['c2', true, false],
      ['c3', true, false],
    ]);
    expect(run.saves).toHaveLength(3);
    expect(run.saves[2]!.at(-1)).toMatchObject({ role: 'assistant', content: 'Done: wrote c.txt.' });
    expect(run.events.at(-1)).toMatchObject({ type: 'done' });
    expect(run.events.filter((e) => e.type === 'tool-result')).toHaveLength(3);
  });

  it('ends with an error result (not a throw) when the model stream fails, and never retries it', async () => {
    const run = await runScripted([{ error: { code: 'E_HTTP_500', message: 'server error' } }, { content: 'never' }]);
    expect(run.result.stopReason).toBe('error');
    expect(run.result.error?.code).toBe('E_HTTP_500');
    expect(run.model.calls).toHaveLength(1);
    expect(run.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'E_HTTP_500' } });
  });

  it('stops at the step limit with a clear code and a consistent history', async () => {
    const loop = Array.from({ length: 5 }, (_, i) => ({ tool_calls: [call(`c${i}`, 'read', { path: 'a.txt' })] }));
    const run = await runScripted(loop, { tools: [readTool()], files: { 'a.txt': 'x' }, maxSteps: 3 });
    expect(run.result.stopReason).toBe('step_limit');
    expect(run.result.error?.code).toBe('E_STEP_LIMIT');
    expect(run.model.calls).toHaveLength(3);
    expect(run.result.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c2' });
  });

  it('does not retry a failed tool call: the error goes to the model once', async () => {
    let runs = 0;
    const failing = {
      ...readTool(),
      async execute() {
        runs++;
        throw new Error('disk on fire');
      },
    };
    const run = await runScripted([{ tool_calls: [call('c1', 'read', { path: 'a' })] }, { content: 'ok' }], {
      tools: [failing],
    });
    expect(runs).toBe(1);
    expect(run.model.calls[1]!.input.history.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1', _error: true });
    expect(String(run.model.calls[1]!.input.history.at(-1)!.content)).toContain('disk on fire');
    expect(run.result.toolCalls[0]).toMatchObject({ ran: true, error: true, code: 'E_TOOL_FAILED' });
  });

  it('returns argument schema violations to the model as tool errors without running the tool', async () => {
    const log: string[] = [];
    const run = await runScripted([{ tool_calls: [call('c1', 'read', { path: 3 })] }, { content: 'ok' }], {
      tools: [readTool(log)],
    });
    expect(log).toEqual([]);
    const tool = run.model.calls[1]!.input.history.at(-1)!;
    expect(tool).toMatchObject({ role: 'tool', _error: true });
    expect(String(tool.content)).toMatch(/E_TOOL_ARGUMENTS.*At arguments\.path/);
    expect(run.result.stopReason).toBe('stop');
  });
});

describe('a resumed turn', () => {
  it("never reports an earlier turn's answer as this turn's text when the model fails", async () => {
    const history = [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'first' },
      { role: 'assistant' as const, content: 'old answer' },
    ];
    const run = await runScripted([{ error: { code: 'E_HTTP_503', message: 'down' } }], { history });
    expect(run.result.stopReason).toBe('error');
    expect(run.result.text).toBe('');
    expect(run.model.calls[0]!.input.history.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });
});
