// The agent side of the Worker boundary, driven directly (as worker.ts exposes it) in Node: fake-indexeddb, a real
// folder, the scripted model server, and an in-memory Web Locks manager with the browser's steal semantics, so two
// hosts over one database play two tabs (host-test-kit.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveApprovalMode } from '../app-agent/agent-settings';
import { createAgentHost } from './host';
import { lockManager, recorder, run, setup } from './host-test-kit';

describe('the agent host (the Worker side of the boundary)', () => {
  it('runs a turn: events in order in a few batches, the approval asked through the page, the edit made and saved', async () => {
    const { tab, dir } = await setup([
      { text: 'Reading.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'blue' } }] },
      { text: 'Done: **blue**.', chunkDelayMs: 1 },
    ]);
    const { host } = await tab();
    const turn = await run(host, null, 'Make it blue');
    expect(turn.final.stopReason).toBe('stop');
    expect(turn.asked).toEqual(['edit']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: blue\n');
    const events = turn.batches.flat();
    expect(events[0]!.type).toBe('turn-start');
    expect(events.at(-1)!.type).toBe('done');
    // Streamed deltas are gathered: fewer calls than events.
    expect(turn.batches.length).toBeLessThan(events.length);
    const saved = (await host.store('ws-1', 'load', [turn.started.session.id])) as {
      messages: Array<{ content: unknown }>;
    };
    expect(saved.messages.at(-1)!.content).toBe('Done: **blue**.');
  });

  it('merges the deltas of a fast stream, so the page updates per frame, not per token, and loses no text', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const { tab } = await setup([{ text }]);
    const { host } = await tab();
    const turn = await run(host, null, 'talk');
    const deltas = turn.batches
      .flat()
      .flatMap((e) => (e.type === 'model' && e.event.type === 'text-delta' ? [e.event.delta] : []));
    expect(deltas.join('')).toBe(text);
    // The server sends the text in 8-character pieces: far more pieces than merged deltas.
    expect(deltas.length).toBeLessThan(Math.ceil(text.length / 8) / 4);
  });

  it('runs one turn per workspace at a time', async () => {
    const { tab } = await setup([{ text: 'slow', hang: true }]);
    const { host } = await tab();
    const first = recorder();
    const started = await host.startTurn({ workspaceId: 'ws-1', sessionId: null, content: 'one' }, first.ports);
    await expect(
      host.startTurn({ workspaceId: 'ws-1', sessionId: null, content: 'two' }, recorder().ports),
    ).rejects.toMatchObject({ code: 'E_TURN_BUSY' });
    host.stopTurn(started.turnId);
    expect((await first.result).stopReason).toBe('aborted');
  });

  it('lets one tab write a session: the other reads, is refused writes, and becomes the writer only by taking over', async () => {
    const { tab } = await setup([{ text: 'first answer' }, { text: 'second answer' }]);
    const a = await tab();
    const b = await tab();
    const first = await run(a.host, null, 'hello');
    const id = first.started.session.id;
    expect(await a.host.claim(id)).toBe('writer');
    expect(await b.host.claim(id)).toBe('reader');
    await expect(run(b.host, id, 'from b')).rejects.toMatchObject({ code: 'E_SESSION_READ_ONLY' });
    await expect(b.host.store('ws-1', 'rename', [id, 'renamed by b'])).rejects.toMatchObject({
      code: 'E_SESSION_READ_ONLY',
    });
    expect(await b.host.claim(id, { steal: true })).toBe('writer');
    await new Promise((r) => setTimeout(r, 0));
    expect(a.roles).toEqual([[id, 'reader']]);
    await expect(a.host.store('ws-1', 'rename', [id, 'renamed by a'])).rejects.toMatchObject({
      code: 'E_SESSION_READ_ONLY',
    });
    const second = await run(b.host, id, 'from b');
    expect(second.final.text).toBe('second answer');
    await b.host.release(id);
    // a had the session open (a follower): it becomes the writer when b lets go.
    await expect
      .poll(() => a.roles)
      .toEqual([
        [id, 'reader'],
        [id, 'writer'],
      ]);
    await a.host.store('ws-1', 'rename', [id, 'renamed by a']);
    expect(await b.host.claim(id)).toBe('reader');
  });

  it('makes the reader of an open session its writer when the writing tab lets go of it', async () => {
    const { tab } = await setup([{ text: 'first' }, { text: 'second' }]);
    const a = await tab();
    const b = await tab();
    const id = (await run(a.host, null, 'hello')).started.session.id;
    expect(await a.host.claim(id)).toBe('writer');
    expect(await b.host.claim(id)).toBe('reader');
    await a.host.release(id);
    await expect.poll(() => b.roles).toEqual([[id, 'writer']]);
    expect((await run(b.host, id, 'from b')).final.text).toBe('second');
    // And back: a steal makes b a reader that waits again.
    expect(await a.host.claim(id, { steal: true })).toBe('writer');
    await expect
      .poll(() => b.roles)
      .toEqual([
        [id, 'writer'],
        [id, 'reader'],
      ]);
  });

  it('stops a turn whose session another tab takes over, and refuses its last save (the other tab writes now)', async () => {
    const { tab } = await setup([{ text: 'first' }, { text: 'a long answer that never ends', hang: true }]);
    const a = await tab();
    const b = await tab();
    const id = (await run(a.host, null, 'hello')).started.session.id;
    const hanging = recorder();
    await a.host.startTurn({ workspaceId: 'ws-1', sessionId: id, content: 'go on' }, hanging.ports);
    await new Promise((r) => setTimeout(r, 100));
    expect(await b.host.claim(id, { steal: true })).toBe('writer');
    const result = await hanging.result;
    expect(result.stopReason).toBe('aborted');
    const saved = (await b.host.store('ws-1', 'load', [id])) as { messages: Array<{ role: string; content: unknown }> };
    expect(saved.messages.map((m) => m.content)).not.toContain('go on');
    expect(hanging.batches.flat().some((e) => e.type === 'warning' && e.error.code === 'E_SESSION_READ_ONLY')).toBe(
      true,
    );
  });

  it('renames sessions of a workspace whose chat is not open, behind the same writer check; claims in flight are shared', async () => {
    const { tab } = await setup([{ text: 'hi' }]);
    const a = await tab();
    const sidebar = await tab({ attach: false });
    const id = (await run(a.host, null, 'hello')).started.session.id;
    await expect(sidebar.host.store('ws-1', 'rename', [id, 'from the sidebar'])).rejects.toMatchObject({
      code: 'E_SESSION_READ_ONLY',
    });
    await a.host.release(id);
    await sidebar.host.store('ws-1', 'rename', [id, 'from the sidebar']);
    expect(((await a.host.store('ws-1', 'get', [id])) as { title: string }).title).toBe('from the sidebar');
    // Two claims of one session at once from one tab: one lock request, both answered writer.
    expect(await Promise.all([sidebar.host.claim('s-2'), sidebar.host.claim('s-2')])).toEqual(['writer', 'writer']);
    expect(await a.host.claim('s-2')).toBe('reader');
  });

  it('refuses to run before the workspace is attached, with a code the page can act on', async () => {
    await setup([]);
    const host = createAgentHost({
      createFs: () => {
        throw new Error('unused');
      },
      locks: lockManager(),
    });
    await host.init({ dbName: `agent-host-empty-${Math.random()}` }, () => undefined);
    await expect(host.settings('nope')).rejects.toMatchObject({ code: 'E_WORKSPACE_NOT_ATTACHED' });
  });
});

describe('approval mode through the host', () => {
  it('reads the workspace approval mode at each turn: auto runs the edit without asking the page', async () => {
    const { db, tab, dir } = await setup([
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'green' } }] },
      { text: 'ok' },
    ]);
    await saveApprovalMode(db, 'ws-1', 'auto');
    const { host } = await tab();
    const turn = await run(host, null, 'green please');
    expect(turn.asked).toEqual([]);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: green\n');
  });
});
