// The app agent (through the Worker host) keeps what issues 15 and 16 need in the log and beside it: a long tool
// result stays whole in the session and its reference is readable in a LATER turn (after the agent was attached
// again, as after a reload); every file an approved edit changes is recorded for undo.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIdbCheckpointStore } from '../checkpoints';
import type { Message, ToolMessage } from '../contracts/messages';
import { run, setup } from './host-test-kit';

describe('the app agent keeps results and file states across turns', () => {
  it('reads a reference made in an earlier turn, after the workspace was attached again', async () => {
    let ref = '';
    const { tab, dir } = await setup((request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }] };
      if (index === 1) return { text: 'I have read it.' };
      if (index === 2) {
        ref = /cr1\.[A-Za-z0-9_-]+/.exec(JSON.stringify(request.body))?.[0] ?? '';
        return { toolCalls: [{ name: 'read_result', arguments: { ref, offset: 0 } }] };
      }
      return { text: 'Done.' };
    });
    await writeFile(join(dir, 'big.txt'), `${'line of text\n'.repeat(2000)}THE END\n`);
    const first = await tab();
    const one = await run(first.host, null, 'Read big.txt');
    const id = one.started.session.id;
    // A new host over the same database: the page was reloaded (the old one let go of the session).
    await first.host.release(id);
    const second = await tab();
    const two = await run(second.host, id, 'Show me the rest');
    expect(ref).toMatch(/^cr1\./);
    expect(two.final.stopReason).toBe('stop');
    const saved = (await second.host.store('ws-1', 'load', [id])) as { messages: Message[] };
    const tools = saved.messages.filter((m): m is ToolMessage => m.role === 'tool');
    // The first result: the model saw a preview, the log keeps it all.
    expect(tools[0]!.content.length).toBeLessThan(5000);
    expect(tools[0]!._full_output!.length).toBeGreaterThan(tools[0]!.content.length * 4);
    // The later turn's read_result answered with the text, not a refusal.
    expect(tools[1]!._error).toBeUndefined();
    expect(tools[1]!.content).toContain('line of text');
  });

  it('records the state of every file an approved edit changes, per session and turn', async () => {
    const { db, tab } = await setup([
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'blue' } }] },
      { text: 'ok' },
    ]);
    const { host } = await tab();
    const turn = await run(host, null, 'Make it blue', 'allow');
    const records = await createIdbCheckpointStore(db, 'ws-1').list(turn.started.session.id);
    const writes = records.filter((r) => r.kind === 'write');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ path: 'notes.txt', tool: 'edit', turn: 1 });
    expect(writes[0]!.before).not.toBe(writes[0]!.after);
  });
});
