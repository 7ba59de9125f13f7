import { describe, expect, it } from 'vitest';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { writeTool } from '../agent/__fixtures__/tools';
import { PERSON_REASON_MAX_CHARS } from './gate';
import type { ApprovalAnswer } from './types';

const writeThenStop = [{ tool_calls: [call('w1', 'write', { path: 'out.txt', text: 'x' })] }, { content: 'ok' }];

async function toolErrorAfter(answer: ApprovalAnswer) {
  const log: string[] = [];
  const run = await runScripted(writeThenStop, { tools: [writeTool(log)], askPerson: async () => answer });
  const sent = run.model.calls[1]!.input.history.at(-1)!;
  return { log, sent, call: run.result.toolCalls[0] };
}

describe('denying a tool call with a reason', () => {
  it('gives the model the person’s reason, quoted as their words, in the tool error', async () => {
    const {
      log,
      sent,
      call: c,
    } = await toolErrorAfter({ decision: 'deny', reason: 'Write to notes/out.txt instead,\nnot the root.' });
    expect(log).toEqual([]);
    expect(sent).toMatchObject({ role: 'tool', tool_call_id: 'w1', _error: true });
    expect(String(sent.content)).toContain('in their own words: "Write to notes/out.txt instead, not the root."');
    expect(c).toMatchObject({ ran: false, code: 'E_TOOL_REJECTED' });
  });

  it('bounds a very long reason and says how long it was', async () => {
    const reason = 'why '.repeat(5000);
    const { sent } = await toolErrorAfter({ decision: 'deny', reason });
    const text = String(sent.content);
    expect(text).toContain(`(${reason.trim().length} characters)`);
    expect(text.length).toBeLessThan(PERSON_REASON_MAX_CHARS + 400);
  });

  it('keeps the plain answers working: "deny" and an empty reason give the old refusal, "allow" runs the tool', async () => {
    for (const answer of ['deny', { decision: 'deny', reason: '  ' }] as ApprovalAnswer[]) {
      const { sent } = await toolErrorAfter(answer);
      expect(String(sent.content)).toContain('The person declined the tool call "write". Do not repeat it');
    }
    expect((await toolErrorAfter('allow')).log).toEqual(['write out.txt']);
    expect((await toolErrorAfter({ decision: 'allow' })).log).toEqual(['write out.txt']);
  });
});
