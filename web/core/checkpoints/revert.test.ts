// Recorder and reverts on a real folder (Node WorkspaceFs, session-folder store): a turn of the real loop with the
// built-in write/edit tools, then revert, conflict detection and redo.
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { call, scriptedModel } from '../agent/__fixtures__/scripted-stream';
import { runTurn } from '../agent/loop';
import type { ModelSettings } from '../agent/types';
import { DEFAULT_APPROVAL } from '../approval';
import { protectWrites, writePolicyOf } from '../contracts/fs';
import { HookPipeline } from '../hooks';
import { ToolRegistry } from '../tools/registry';
import { editTool, writeTool } from '../tools/builtin';
import { changesOf } from './changes';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints, type CheckpointEvent } from './recorder';
import { revertFile, revertSince, revertTurn, undoRevert } from './revert';
import { ABSENT, type CheckpointStore } from './types';

const MODEL: ModelSettings = {
  protocol: 'openai',
  base_url: 'http://127.0.0.1:9/v1',
  model: 'm',
  max_tokens: 1000,
  use_max_tokens: false,
  extra_body: {},
  budget: null,
};
const SESSION = 'work';

async function setup(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'i-revert-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const store = createNodeCheckpointStore({ sessionsRoot: mkdtempSync(join(tmpdir(), 'i-revert-sessions-')) });
  const read = (name: string) => readFile(join(dir, name), 'utf8').catch(() => null);
  return { dir, fs, store, read };
}

/** One turn of the real loop in yolo mode: the scripted model calls the given tools, then answers. */
async function agentTurn(
  store: CheckpointStore,
  fs: Awaited<ReturnType<typeof createNodeWorkspaceFs>>,
  calls: ReturnType<typeof call>[],
  events: CheckpointEvent[] = [],
) {
  const tools = new ToolRegistry();
  tools.register(writeTool());
  tools.register(editTool());
  const checkpoints = await startTurnCheckpoints({ store, session: SESSION, onEvent: (e) => events.push(e) });
  const stream = runTurn(
    { model: MODEL, history: [], content: 'change the files' },
    {
      stream: scriptedModel([{ tool_calls: calls, finish_reason: 'tool_calls' }, { content: 'done' }]).stream,
      tools,
      hooks: new HookPipeline(),
      approval: { ...DEFAULT_APPROVAL, yolo: true },
      fs,
      workspaceId: 'ws',
      checkpoints,
    },
  );
  for await (const _ of stream) void _;
  const result = await stream.result();
  expect(result.toolCalls.every((c) => !c.error)).toBe(true);
  return checkpoints.turn;
}

describe('checkpoints of agent writes, and reverts', () => {
  it('records the built-in edit and write of a turn: two files edited, one created, each with its state before and after', async () => {
    const { fs, store } = await setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    const turn = await agentTurn(store, fs, [
      call('c1', 'edit', { path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      call('c2', 'edit', { path: 'b.txt', old_string: 'beta', new_string: 'BETA' }),
      call('c3', 'write', { path: 'new/c.txt', content: 'gamma\n' }),
    ]);
    expect(turn).toBe(1);
    const { changes } = changesOf(await store.list(SESSION));
    expect(
      changes.map((c) => [c.turn, c.step, c.tool, c.callId, c.path, c.change, c.beforeBytes, c.afterBytes, c.reverted]),
    ).toEqual([
      [1, 1, 'edit', 'c1', 'a.txt', 'modified', 6, 6, false],
      [1, 1, 'edit', 'c2', 'b.txt', 'modified', 5, 5, false],
      [1, 1, 'write', 'c3', 'new/c.txt', 'created', null, 6, false],
    ]);
    expect(new TextDecoder().decode((await store.getBlob(SESSION, changes[0]!.before))!)).toBe('alpha\n');
  });

  it('reverts everything since a turn to identical bytes: modified files back, created file deleted, deleted file recreated', async () => {
    const { dir, fs, store, read } = await setup({ 'a.txt': 'alpha\n', 'gone.txt': 'keep me\r\n\u00e9' });
    await agentTurn(store, fs, [call('c1', 'write', { path: 'a.txt', content: 'one\n' })]);
    const two = await startTurnCheckpoints({ store, session: SESSION });
    const cfs = two.fsFor({ id: 'c2', name: 'plugin.tool', step: 1 }, fs);
    await cfs.writeText('a.txt', 'two\n');
    await cfs.writeText('made.txt', 'new\n');
    await cfs.remove('gone.txt');
    expect(await read('gone.txt')).toBeNull();

    const r = await revertSince({ store, fs, session: SESSION }, 1);
    expect(r.files.map((f) => f.path).sort()).toEqual(['a.txt', 'gone.txt', 'made.txt']);
    expect(await read('a.txt')).toBe('alpha\n');
    expect(await read('made.txt')).toBeNull();
    expect(await readFile(join(dir, 'gone.txt'))).toEqual(Buffer.from('keep me\r\n\u00e9'));
    expect(changesOf(await store.list(SESSION)).changes.every((c) => c.reverted)).toBe(true);
  });

  it('refuses to overwrite a file the person changed after the turn (E_REVERT_CONFLICT with path, expected, actual) and changes nothing; force overwrites', async () => {
    const { dir, fs, store, read } = await setup({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    await agentTurn(store, fs, [
      call('c1', 'write', { path: 'a.txt', content: 'agent a\n' }),
      call('c2', 'write', { path: 'b.txt', content: 'agent b\n' }),
    ]);
    await writeFile(join(dir, 'b.txt'), 'my own edit\n');
    const error = await revertSince({ store, fs, session: SESSION }, 1).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'E_REVERT_CONFLICT',
      data: {
        path: 'b.txt',
        expected: expect.stringMatching(/^[0-9a-f]{64}$/),
        actual: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(await read('a.txt')).toBe('agent a\n');
    expect(await read('b.txt')).toBe('my own edit\n');
    const forced = await revertSince({ store, fs, session: SESSION, force: true }, 1);
    expect(forced.forced).toEqual(['b.txt']);
    expect(await read('b.txt')).toBe('beta\n');
    expect(await read('a.txt')).toBe('alpha\n');
  });

  it("undoes a revert (redo): the agent's versions come back, the writes count as not reverted, and the redo can be undone too", async () => {
    const { fs, store, read } = await setup({ 'a.txt': 'alpha\n' });
    await agentTurn(store, fs, [
      call('c1', 'write', { path: 'a.txt', content: 'agent\n' }),
      call('c2', 'write', { path: 'n.txt', content: 'new\n' }),
    ]);
    const revert = await revertSince({ store, fs, session: SESSION }, 1);
    expect(await read('n.txt')).toBeNull();
    const redo = await undoRevert({ store, fs, session: SESSION }, revert.group);
    expect(await read('a.txt')).toBe('agent\n');
    expect(await read('n.txt')).toBe('new\n');
    const listed = changesOf(await store.list(SESSION));
    expect(listed.changes.map((c) => c.reverted)).toEqual([false, false]);
    expect(listed.reverts.map((x) => [x.tool, x.active])).toEqual([
      ['revert', false],
      ['redo', true],
    ]);
    await expect(undoRevert({ store, fs, session: SESSION }, revert.group)).rejects.toMatchObject({
      code: 'E_REVERT_NOTHING',
    });
    await undoRevert({ store, fs, session: SESSION }, redo.group);
    expect(await read('a.txt')).toBe('alpha\n');
    expect(changesOf(await store.list(SESSION)).changes.map((c) => c.reverted)).toEqual([true, true]);
  });

  it('reverts one file to its state before a turn, and refuses a turn alone when a later turn changed the same file', async () => {
    const { fs, store, read } = await setup({ 'a.txt': 'v0\n', 'b.txt': 'b0\n' });
    await agentTurn(store, fs, [
      call('c1', 'write', { path: 'a.txt', content: 'v1\n' }),
      call('c2', 'write', { path: 'b.txt', content: 'b1\n' }),
    ]);
    await agentTurn(store, fs, [call('c3', 'write', { path: 'a.txt', content: 'v2\n' })]);
    await expect(revertTurn({ store, fs, session: SESSION }, 1)).rejects.toMatchObject({
      code: 'E_REVERT_LATER_CHANGES',
      data: { path: 'a.txt', laterTurn: 2 },
    });
    await revertTurn({ store, fs, session: SESSION }, 2);
    expect(await read('a.txt')).toBe('v1\n');
    await revertFile({ store, fs, session: SESSION }, 'a.txt', 1);
    expect(await read('a.txt')).toBe('v0\n');
    expect(await read('b.txt')).toBe('b1\n');
  });

  it('refuses a revert reaching back to a pruned turn (E_CHECKPOINT_PRUNED) without touching any file; later turns still revert', async () => {
    const { fs, read } = await setup({ 'a.txt': 'x'.repeat(100) });
    const store = createNodeCheckpointStore({
      sessionsRoot: mkdtempSync(join(tmpdir(), 'i-revert-cap-')),
      capBytes: 150,
    });
    const events: CheckpointEvent[] = [];
    await agentTurn(store, fs, [call('c1', 'write', { path: 'a.txt', content: 'y'.repeat(100) })], events);
    await agentTurn(store, fs, [call('c2', 'write', { path: 'a.txt', content: 'z'.repeat(100) })], events);
    expect(events.filter((e) => e.type === 'pruned')).toHaveLength(1);
    await expect(revertSince({ store, fs, session: SESSION }, 1)).rejects.toMatchObject({
      code: 'E_CHECKPOINT_PRUNED',
      data: { prunedThrough: 1 },
    });
    expect(await read('a.txt')).toBe('z'.repeat(100));
    await revertSince({ store, fs, session: SESSION }, 2);
    expect(await read('a.txt')).toBe('y'.repeat(100));
  });

  it('refuses a write whose prior state cannot be stored (E_CHECKPOINT_FAILED) and leaves the file as it was', async () => {
    const { fs, store, read } = await setup({ 'a.txt': 'precious\n' });
    const failing: CheckpointStore = { ...store, stageWrite: () => Promise.reject(new Error('quota exceeded')) };
    const turn = await startTurnCheckpoints({ store: failing, session: SESSION });
    await expect(
      turn.fsFor({ id: 'c', name: 'write', step: 1 }, fs).writeText('a.txt', 'lost?\n'),
    ).rejects.toMatchObject({ code: 'E_CHECKPOINT_FAILED', data: { path: 'a.txt' } });
    expect(await read('a.txt')).toBe('precious\n');
  });

  it('keeps the workspace write policy of the fs it wraps, so --allow-git-writes still reaches the tools', async () => {
    const { fs, store } = await setup({});
    const turn = await startTurnCheckpoints({ store, session: SESSION });
    expect(
      writePolicyOf(turn.fsFor({ id: 'c', name: 'write', step: 1 }, protectWrites(fs, { allowGitWrites: true })))
        .allowGitWrites,
    ).toBe(true);
    await expect(
      turn
        .fsFor({ id: 'c', name: 'write', step: 1 }, protectWrites(fs, { allowGitWrites: false }))
        .writeText('.git/config', 'x'),
    ).rejects.toMatchObject({ code: 'E_PATH_PROTECTED' });
    expect((await store.list(SESSION)).filter((r) => r.kind === 'write')).toEqual([]);
  });

  it("numbers turns from the session's records, so a turn that changed nothing keeps its number", async () => {
    const { store } = await setup({});
    expect((await startTurnCheckpoints({ store, session: SESSION })).turn).toBe(1);
    expect((await startTurnCheckpoints({ store, session: SESSION })).turn).toBe(2);
    expect((await store.list(SESSION)).map((r) => [r.kind, r.path, r.before, r.after])).toEqual([
      ['turn', '', ABSENT, ABSENT],
      ['turn', '', ABSENT, ABSENT],
    ]);
  });
});
