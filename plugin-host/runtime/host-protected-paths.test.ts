// Plugin fs.write under the workspace write policy (issue 13): detours into .git are refused with E_PATH_PROTECTED
// before anyone is asked, in every approval mode; files that run code on open ask even in auto mode; the person is
// shown the normalised path, and the raw one only beside it.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostCall, readTranscript, recorderWasm } from '../fixtures/wat/wat';
import { protectWrites, type WorkspaceFs } from '../fs';
import { createNodeWorkspaceFs } from '../fs/node';
import { GIT_DETOURS, I_STATE_DETOURS } from '../fs/workspace-fs-suite';
import type { WriteApproval, WriteApprovalRequest } from './host-ops';
import { invokePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { nodeWorkerFactory } from './node-worker';
import { pluginFrom, tempWorkspace } from './test-kit';

const CONFIG = '[core]\n\tbare = false\n';
let root = '';
let dispose = async () => {};
beforeEach(async () => {
  ({ root, dispose } = await tempWorkspace());
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'config'), CONFIG);
  await mkdir(join(root, '.vscode'));
  await writeFile(join(root, '.vscode', 'settings.json'), '{}\n');
});
afterEach(() => dispose());

type Response = { ok: boolean; error?: string };

async function writes(paths: readonly string[], approval: WriteApproval, fs?: WorkspaceFs): Promise<string[]> {
  const script = paths.map((path, i) =>
    hostCall(i + 1, 'fs.write', { path, text: '[core]\n\tfsmonitor = "touch pwned"\n' }),
  );
  const result = await invokePlugin({
    plugin: await pluginFrom(await recorderWasm(script)),
    tool: 'run',
    arguments: {},
    workspaceId: 'ws-1',
    fs: fs ?? (await createNodeWorkspaceFs({ root, access: 'read-write' })),
    kv: new MemoryKvStore(),
    approval,
    createWorker: nodeWorkerFactory(),
    timeoutMs: 20_000,
  });
  expect(result.status).toBe('done');
  if (result.status !== 'done') return [];
  return readTranscript(result.output)
    .slice(1)
    .map((frame) => {
      const r = (frame as { response: Response }).response;
      return r.ok ? 'ok' : r.error!.split(':')[0]!;
    });
}

describe('plugin fs.write and protected paths', () => {
  it('refuses every detour into .git with E_PATH_PROTECTED in ask, auto and yolo, without asking', async () => {
    const asked: WriteApprovalRequest[] = [];
    const approve = async (r: WriteApprovalRequest) => (asked.push(r), true);
    for (const approval of [{ mode: 'ask', approve }, { mode: 'auto', approve }, { mode: 'yolo' }] as WriteApproval[]) {
      expect([approval.mode, await writes(GIT_DETOURS, approval)]).toEqual([
        approval.mode,
        GIT_DETOURS.map(() => 'E_PATH_PROTECTED'),
      ]);
    }
    expect(asked).toEqual([]);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe(CONFIG);
  });

  it('refuses every detour into .i (session logs, checkpoints) in ask, auto and yolo, even with .git writes allowed, without asking', async () => {
    await mkdir(join(root, '.i', 'sessions', 'work', 'checkpoints'), { recursive: true });
    await writeFile(join(root, '.i', 'sessions', 'work', 'checkpoints', 'records.ndjson'), '{"seq":1}\n');
    const asked: WriteApprovalRequest[] = [];
    const approve = async (r: WriteApprovalRequest) => (asked.push(r), true);
    const allowing = protectWrites(await createNodeWorkspaceFs({ root, access: 'read-write' }), {
      allowGitWrites: true,
    });
    for (const approval of [{ mode: 'ask', approve }, { mode: 'auto', approve }, { mode: 'yolo' }] as WriteApproval[]) {
      expect([approval.mode, await writes(I_STATE_DETOURS, approval, allowing)]).toEqual([
        approval.mode,
        I_STATE_DETOURS.map(() => 'E_PATH_PROTECTED'),
      ]);
    }
    expect(asked).toEqual([]);
    expect(await readFile(join(root, '.i', 'sessions', 'work', 'checkpoints', 'records.ndjson'), 'utf8')).toBe(
      '{"seq":1}\n',
    );
  });

  it('lets the plugin write inside .git when the fs carries a policy that allows it', async () => {
    const fs = protectWrites(await createNodeWorkspaceFs({ root, access: 'read-write' }), { allowGitWrites: true });
    expect(await writes(['notes.md/./././../.git/config'], { mode: 'auto' }, fs)).toEqual(['ok']);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toContain('fsmonitor');
  });

  it('asks about .vscode/settings.json even in auto mode, with the reason; refuses it when nobody can answer; yolo writes it', async () => {
    const asked: WriteApprovalRequest[] = [];
    const deny = async (r: WriteApprovalRequest) => (asked.push(r), false);
    expect(await writes(['.vscode/settings.json', 'src/plain.txt'], { mode: 'auto', approve: deny })).toEqual([
      'E_HOST_WRITE_DENIED',
      'ok',
    ]);
    expect(asked.map((r) => [r.path, r.alwaysAsk?.reason])).toEqual([['.vscode/settings.json', 'vscode']]);
    expect(asked[0]!.alwaysAsk!.text).toContain('VS Code');
    expect(await writes(['.vscode/settings.json'], { mode: 'auto' })).toEqual(['E_HOST_WRITE_DENIED']);
    expect(await readFile(join(root, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(await writes(['.vscode/settings.json'], { mode: 'yolo' })).toEqual(['ok']);
  });

  it('shows the person the normalised path and the raw one beside it, never the raw one alone', async () => {
    const asked: WriteApprovalRequest[] = [];
    const raw = `notes.md/${'./'.repeat(60)}../docs/a.md`;
    const approve = async (r: WriteApprovalRequest) => (asked.push(r), true);
    expect(await writes([raw, 'docs/b.md'], { mode: 'ask', approve })).toEqual(['ok', 'ok']);
    expect(asked.map((r) => [r.path, r.rawPath])).toEqual([
      ['docs/a.md', raw],
      ['docs/b.md', undefined],
    ]);
    expect(await readFile(join(root, 'docs', 'a.md'), 'utf8')).toContain('fsmonitor');
  });

  it('refuses a name with a bidi or zero-width character (E_PATH_INVISIBLE_CHAR)', async () => {
    expect(await writes(['report\u202Etxt.exe', '.g\u200cit/config'], { mode: 'yolo' })).toEqual([
      'E_PATH_INVISIBLE_CHAR',
      'E_PATH_INVISIBLE_CHAR',
    ]);
  });

  it('judges the file a write reaches through a symbolic link (Node follows links inside the folder)', async () => {
    await symlink('.git', join(root, 'notes'));
    await symlink('.vscode', join(root, 'editor'));
    expect(await writes(['notes/config'], { mode: 'yolo' })).toEqual(['E_PATH_PROTECTED']);
    const asked: WriteApprovalRequest[] = [];
    expect(
      await writes(['editor/settings.json'], { mode: 'auto', approve: async (r) => (asked.push(r), false) }),
    ).toEqual(['E_HOST_WRITE_DENIED']);
    expect(asked.map((r) => [r.path, r.alwaysAsk?.reason])).toEqual([['editor/settings.json', 'vscode']]);
    expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe(CONFIG);
  });

  it('names the real path behind a link on the approval request, for approval rules', async () => {
    await mkdir(join(root, 'secrets'));
    await symlink('secrets', join(root, 'notes'));
    const asked: WriteApprovalRequest[] = [];
    expect(
      await writes(['notes/key.txt', 'docs/a.md'], { mode: 'ask', approve: async (r) => (asked.push(r), false) }),
    ).toEqual(['E_HOST_WRITE_DENIED', 'E_HOST_WRITE_DENIED']);
    expect(asked.map((r) => [r.path, r.realPath])).toEqual([
      ['notes/key.txt', 'secrets/key.txt'],
      ['docs/a.md', undefined],
    ]);
  });
});
