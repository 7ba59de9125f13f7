// Undo through the agent Worker's host (issue 16), on a real folder with the scripted model server: what a turn
// changed (+/− lines), one hunk put back, a person's edit detected on revert (and overwritten only with force), and
// "Rewind to here" for files and conversation together, files only and conversation only. Only the writer tab may.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import { recorder, run, setup } from './host-test-kit';

const A = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const edit = (path: string, from: string, to: string) => ({
  name: 'edit',
  arguments: { path, old_string: from, new_string: to },
});

async function twoTurns() {
  const kit = await setup([
    {
      toolCalls: [
        edit('a.txt', 'alpha', 'ALPHA'),
        edit('a.txt', 'theta', 'THETA'),
        edit('b.txt', 'one', 'two'),
        { name: 'write', arguments: { path: 'c.txt', content: 'new\n' } },
      ],
    },
    { text: 'Turn one done.' },
    { toolCalls: [edit('a.txt', 'gamma', 'GAMMA')] },
    { text: 'Turn two done.' },
  ]);
  await writeFile(join(kit.dir, 'a.txt'), A);
  await writeFile(join(kit.dir, 'b.txt'), 'one\n');
  const { host } = await kit.tab();
  const first = await run(host, null, 'first', 'allow');
  const id = first.started.session.id;
  await run(host, id, 'second', 'allow');
  const file = (p: string) => readFile(join(kit.dir, p), 'utf8');
  return { ...kit, host, id, file };
}

describe('undo through the host', () => {
  it('lists what the turns changed with +/− lines, and puts one hunk back leaving the rest', async () => {
    const { host, id, file } = await twoTurns();
    const changes = await host.changes('ws-1', id);
    expect(changes.files.map((f) => [f.path, f.change, f.turns, f.added, f.removed])).toEqual([
      ['a.txt', 'modified', [1, 2], 3, 3],
      ['b.txt', 'modified', [1], 1, 1],
      ['c.txt', 'created', [1], 1, 0],
    ]);
    expect(changes.totals).toEqual({ files: 3, added: 5, removed: 4 });
    const v = await host.fileVersions('ws-1', id, 'a.txt');
    expect(v.before).toBe(A);
    expect(v.after).toBe(A.replace('alpha', 'ALPHA').replace('gamma', 'GAMMA').replace('theta', 'THETA'));
    // The page reverts the first hunk only (ALPHA → alpha): the other two stay.
    await host.revertPart('ws-1', id, 'a.txt', v.current!.replace('ALPHA', 'alpha'), v.currentSha);
    expect(await file('a.txt')).toBe(A.replace('gamma', 'GAMMA').replace('theta', 'THETA'));
    // A stale view (the file changed since) is refused.
    await expect(host.revertPart('ws-1', id, 'a.txt', 'x', v.currentSha)).rejects.toMatchObject({
      code: 'E_REVERT_CONFLICT',
    });
    // The partial revert is recorded: a full revert of the file still returns it to where the session started.
    await host.revert('ws-1', id, { kind: 'file', path: 'a.txt', turn: 1 });
    expect(await file('a.txt')).toBe(A);
  });

  it('detects the person’s edit on revert and overwrites it only when forced; a revert can be undone', async () => {
    const { host, id, file, dir } = await twoTurns();
    await writeFile(join(dir, 'b.txt'), 'two\nmine\n');
    expect((await host.changes('ws-1', id)).files.find((f) => f.path === 'b.txt')?.changedSince).toBe(true);
    // Turn one alone cannot go back while turn two changed a.txt after it.
    await expect(host.revert('ws-1', id, { kind: 'turn', turn: 1 })).rejects.toMatchObject({
      code: 'E_REVERT_LATER_CHANGES',
    });
    await expect(host.revert('ws-1', id, { kind: 'since', turn: 1 })).rejects.toMatchObject({
      code: 'E_REVERT_CONFLICT',
      data: { path: 'b.txt' },
    });
    expect(await file('a.txt')).toContain('GAMMA');
    expect(await file('b.txt')).toBe('two\nmine\n');
    const done = await host.revert('ws-1', id, { kind: 'file', path: 'b.txt', turn: 1 }, true);
    expect(await file('b.txt')).toBe('one\n');
    await host.revert('ws-1', id, { kind: 'undo', group: done.group });
    expect(await file('b.txt')).toBe('two\nmine\n');
  });

  it('rewinds files and conversation to before a prompt, or only one of them', async () => {
    const { host, id, file } = await twoTurns();
    const load = async () => ((await host.store('ws-1', 'load', [id])) as { messages: Message[] }).messages;
    const prompts = (messages: Message[]) =>
      messages.flatMap((m, i) => (m.role === 'user' && m._meta === undefined ? [i] : []));
    const second = prompts(await load())[1]!;
    // Files only: turn two's edit goes, the conversation stays.
    const filesOnly = await host.rewind('ws-1', id, second, 'files');
    expect(filesOnly.messages).toBeNull();
    expect(await file('a.txt')).toBe(A.replace('alpha', 'ALPHA').replace('theta', 'THETA'));
    expect(prompts(await load())).toHaveLength(2);
    // Both from the first prompt: every file as before the session, the conversation empty of turns.
    const first = prompts(await load())[0]!;
    const both = await host.rewind('ws-1', id, first, 'both');
    expect(both.prompt).toMatchObject({ role: 'user', content: 'first' });
    expect(await file('a.txt')).toBe(A);
    expect(await file('b.txt')).toBe('one\n');
    await expect(file('c.txt')).rejects.toThrow();
    expect((await load()).length).toBe(first);
  });

  it('rewinds the conversation only without touching files, and refuses a message that is not a prompt', async () => {
    const { host, id, file } = await twoTurns();
    const messages = ((await host.store('ws-1', 'load', [id])) as { messages: Message[] }).messages;
    const answer = messages.findIndex((m) => m.role === 'assistant');
    await expect(host.rewind('ws-1', id, answer, 'both')).rejects.toMatchObject({ code: 'E_REWIND_NOT_A_PROMPT' });
    const second = messages
      .map((m, i) => (m.role === 'user' && m._meta === undefined ? i : -1))
      .filter((i) => i >= 0)[1]!;
    await host.rewind('ws-1', id, second, 'conversation');
    expect(await file('a.txt')).toContain('GAMMA');
    expect(((await host.store('ws-1', 'load', [id])) as { messages: Message[] }).messages).toHaveLength(second);
  });

  it('lets only the tab that writes the session revert or rewind it', async () => {
    const { host, id, tab } = await twoTurns();
    expect(await host.claim(id)).toBe('writer');
    const other = await tab();
    expect(await other.host.claim(id)).toBe('reader');
    await expect(other.host.revert('ws-1', id, { kind: 'since', turn: 1 })).rejects.toMatchObject({
      code: 'E_SESSION_READ_ONLY',
    });
    await expect(other.host.rewind('ws-1', id, 1, 'conversation')).rejects.toMatchObject({
      code: 'E_SESSION_READ_ONLY',
    });
  });

  it('refuses a revert or rewind while a turn runs in the workspace (its next write would record the wrong before)', async () => {
    const kit = await setup([{ text: 'slow', hang: true }]);
    const { host } = await kit.tab();
    const turn = recorder();
    const started = await host.startTurn({ workspaceId: 'ws-1', sessionId: null, content: 'go' }, turn.ports);
    const id = started.session.id;
    await expect(host.revert('ws-1', id, { kind: 'since', turn: 1 })).rejects.toMatchObject({ code: 'E_TURN_BUSY' });
    await expect(host.revertPart('ws-1', id, 'a.txt', 'x', 'absent')).rejects.toMatchObject({ code: 'E_TURN_BUSY' });
    await expect(host.rewind('ws-1', id, 1, 'files')).rejects.toMatchObject({ code: 'E_TURN_BUSY' });
    host.stopTurn(started.turnId);
    await turn.result;
  });
});
