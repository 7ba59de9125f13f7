// The person may edit the proposed content of a write/edit before allowing it (issue 16, the approval card's
// review): the gate passes their content on, the built-in tool writes it instead of its own, and the model is told.
import { describe, expect, it } from 'vitest';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { writeTool as loggingWriteTool } from '../agent/__fixtures__/tools';
import { editTool, writeTool } from '../tools/builtin';
import type { ApprovalAnswer, ApprovalRequest } from './types';
import { markedToolContent } from '../agent/native-marks';

const thenStop = (name: string, args: Record<string, unknown>) => [
  { tool_calls: [call('c1', name, args)] },
  { content: 'ok' },
];

async function answered(
  name: string,
  args: Record<string, unknown>,
  answer: ApprovalAnswer,
  files: Record<string, string> = {},
) {
  const asked: ApprovalRequest[] = [];
  const run = await runScripted(thenStop(name, args), {
    tools: [writeTool(), editTool()],
    files,
    askPerson: async (request) => (asked.push(request), answer),
  });
  const sent = run.model.calls[1]!.input.history.at(-1)!;
  return { run, asked, sent: String(sent.content), call: run.result.toolCalls[0]! };
}

describe('allowing a write or an edit with the person’s own content', () => {
  it('offers the whole file before and the proposed content for review', async () => {
    const { asked } = await answered('edit', { path: 'a.txt', old_string: 'one', new_string: 'two' }, 'deny', {
      'a.txt': 'one\nkeep\n',
    });
    expect(asked[0]!.prepared?.review).toEqual({ before: 'one\nkeep\n', after: 'two\nkeep\n' });
    const created = await answered('write', { path: 'new.txt', content: 'hi\n' }, 'deny');
    expect(created.asked[0]!.prepared?.review).toEqual({ before: null, after: 'hi\n' });
  });

  it('writes the person’s version of a write and tells the model how it differs from its proposal', async () => {
    const {
      run,
      sent,
      call: c,
    } = await answered(
      'write',
      { path: 'notes.txt', content: 'model line\n' },
      { decision: 'allow', content: 'person line\n' },
    );
    expect(await run.fs.readText('notes.txt')).toBe('person line\n');
    expect(c).toMatchObject({ ran: true, error: false });
    expect(sent).toContain(
      'Created notes.txt (12 bytes). The person changed the content before allowing it, so notes.txt holds their version, not yours.',
    );
    expect(sent).toContain('-model line\n+person line');
  });

  it('writes the whole content the person approved for an edit', async () => {
    const { run, sent } = await answered(
      'edit',
      { path: 'a.txt', old_string: 'one', new_string: 'two' },
      { decision: 'allow', content: 'three\nkeep\nadded\n' },
      { 'a.txt': 'one\nkeep\n' },
    );
    expect(await run.fs.readText('a.txt')).toBe('three\nkeep\nadded\n');
    expect(sent).toContain('Edited a.txt: 1 replacement. The person changed the content before allowing it');
    expect(sent).toContain('-two\n+three');
    expect(sent).toContain('+added');
  });

  it('says nothing extra when the person allowed the proposal unchanged', async () => {
    const { run, sent } = await answered(
      'write',
      { path: 'n.txt', content: 'same\n' },
      { decision: 'allow', content: 'same\n' },
    );
    expect(await run.fs.readText('n.txt')).toBe('same\n');
    expect(sent).toBe(markedToolContent('Created n.txt (5 bytes).'));
  });

  it('never uses content sent with a deny', async () => {
    const { run, call: c } = await answered('write', { path: 'd.txt', content: 'x' }, {
      decision: 'deny',
      content: 'y',
    } as unknown as ApprovalAnswer);
    expect(c).toMatchObject({ ran: false, code: 'E_TOOL_REJECTED' });
    expect(await run.fs.stat('d.txt')).toBeNull();
  });

  it('refuses to run a tool that offered no review rather than drop the person’s edit', async () => {
    const log: string[] = [];
    const run = await runScripted(thenStop('write', { path: 'out.txt', text: 'x' }), {
      tools: [loggingWriteTool(log)],
      askPerson: async () => ({ decision: 'allow', content: 'mine' }),
    });
    expect(log).toEqual([]);
    expect(run.result.toolCalls[0]).toMatchObject({ ran: false, code: 'E_APPROVAL_EDIT_UNSUPPORTED' });
  });
});
