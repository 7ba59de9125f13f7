// Refused host calls: answered to the plugin as ok:false with an error that starts with a stable code; the
// invocation goes on (the recorder reaches done) and nothing outside the grant is touched.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostCall, readTranscript, recorderWasm } from '../fixtures/wat/wat';
import type { PluginPermissions, WriteApproval } from './host-ops';
import { MemoryKvStore, type KvStore } from './kv-store';
import { pluginFrom, run, tempWorkspace, type RunOptions } from './test-kit';

let root = '';
let outside = '';
let disposers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  const ws = await tempWorkspace();
  const out = await tempWorkspace();
  root = ws.root;
  outside = out.root;
  disposers = [ws.dispose, out.dispose];
  await writeFile(join(root, 'notes.txt'), 'inside');
  await writeFile(join(outside, 'secret.txt'), 'outside');
});
afterEach(async () => {
  for (const d of disposers) await d();
});

type Response = { id: number; ok: boolean; error?: string; result?: unknown };

/** Runs one scripted plugin and returns the host responses it received, in order. */
async function responses(
  script: object[],
  options: RunOptions & { permissions?: PluginPermissions; id?: string } = {},
): Promise<Response[]> {
  const { permissions, id, ...rest } = options;
  const plugin = await pluginFrom(await recorderWasm(script), permissions, id);
  const result = await run(plugin, { root, ...rest });
  expect(result.status).toBe('done');
  if (result.status !== 'done') return [];
  return readTranscript(result.output)
    .slice(1)
    .map((frame) => (frame as { response: Response }).response);
}

const codeOf = (r: Response | undefined) => (r?.ok === false ? r.error!.split(':')[0] : 'ok');

describe('path escapes are refused through the shared WorkspaceFs policy', () => {
  const cases: [string, string][] = [
    ['../outside.txt', 'E_PATH_ESCAPE'],
    ['a/../../x', 'E_PATH_ESCAPE'],
    ['/etc/passwd', 'E_PATH_ABSOLUTE'],
    ['..\\notes.txt', 'E_PATH_BACKSLASH'],
    ['notes.txt\u0000.png', 'E_PATH_NUL'],
  ];
  for (const [path, code] of cases) {
    it(`fs.read, fs.list and fs.write of ${JSON.stringify(path)} → ${code}`, async () => {
      const rs = await responses([
        hostCall(1, 'fs.read', { path }),
        hostCall(2, 'fs.list', { path }),
        hostCall(3, 'fs.write', { path, text: 'x' }),
      ]);
      expect(rs.map(codeOf)).toEqual([code, code, code]);
    });
  }

  it('a symlink out of the folder is refused for reading and writing, and the outside file is unchanged', async () => {
    await symlink(outside, join(root, 'link'));
    await symlink(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    const rs = await responses([
      hostCall(1, 'fs.read', { path: 'link/secret.txt' }),
      hostCall(2, 'fs.read', { path: 'secret-link.txt' }),
      hostCall(3, 'fs.write', { path: 'link/secret.txt', text: 'pwned' }),
      hostCall(4, 'fs.write', { path: 'link/new.txt', text: 'pwned' }),
      hostCall(5, 'fs.list', { path: 'link' }),
    ]);
    expect(rs.map(codeOf)).toEqual([
      'E_PATH_ESCAPE',
      'E_PATH_ESCAPE',
      'E_PATH_ESCAPE',
      'E_PATH_ESCAPE',
      'E_PATH_ESCAPE',
    ]);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
    await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow();
  });
});

describe('permissions and approval', () => {
  it('a plugin whose manifest asks for read only cannot write (E_HOST_PERMISSION)', async () => {
    const rs = await responses([hostCall(1, 'fs.write', { path: 'notes.txt', text: 'x' })], {
      permissions: { workspace: 'read', storage: false },
    });
    expect(codeOf(rs[0])).toBe('E_HOST_PERMISSION');
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('inside');
  });

  it('a plugin with workspace "none" cannot read (E_HOST_PERMISSION)', async () => {
    const rs = await responses([hostCall(1, 'fs.read', { path: 'notes.txt' })], {
      permissions: { workspace: 'none', storage: false },
    });
    expect(codeOf(rs[0])).toBe('E_HOST_PERMISSION');
  });

  it('a read-only grant refuses writes even for a read-write plugin (E_HOST_READ_ONLY)', async () => {
    const rs = await responses([hostCall(1, 'fs.write', { path: 'notes.txt', text: 'x' })], { access: 'read' });
    expect(codeOf(rs[0])).toBe('E_HOST_READ_ONLY');
  });

  it('asks the person with the path, old and new text; a denial refuses that write only and the plugin goes on', async () => {
    const asked: unknown[] = [];
    const approval: WriteApproval = {
      mode: 'ask',
      approve: async (request) => {
        asked.push(request);
        return request.path === 'allowed.txt';
      },
    };
    const rs = await responses(
      [
        hostCall(1, 'fs.write', { path: 'notes.txt', text: 'changed' }),
        hostCall(2, 'fs.write', { path: 'allowed.txt', text: 'ok' }),
        hostCall(3, 'fs.read', { path: 'notes.txt' }),
      ],
      { approval },
    );
    expect(rs.map(codeOf)).toEqual(['E_HOST_WRITE_DENIED', 'ok', 'ok']);
    expect(asked).toEqual([
      { pluginId: 'test.recorder', path: 'notes.txt', oldText: 'inside', exists: true, newText: 'changed' },
      { pluginId: 'test.recorder', path: 'allowed.txt', oldText: null, exists: false, newText: 'ok' },
    ]);
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('inside');
    expect(await readFile(join(root, 'allowed.txt'), 'utf8')).toBe('ok');
  });

  it('does not ask about an escaping path: it is refused first', async () => {
    let asked = 0;
    const rs = await responses([hostCall(1, 'fs.write', { path: '../x.txt', text: 'x' })], {
      approval: { mode: 'ask', approve: async () => (asked++, true) },
    });
    expect(codeOf(rs[0])).toBe('E_PATH_ESCAPE');
    expect(asked).toBe(0);
  });

  it('pauses the budget while the person decides', async () => {
    const rs = await responses([hostCall(1, 'fs.write', { path: 'slow.txt', text: 'x' })], {
      // Generous against a loaded machine: start-up must fit in 2 s, the person takes 1.5 s longer than the budget.
      timeoutMs: 2000,
      approval: { mode: 'ask', approve: () => new Promise((r) => setTimeout(() => r(true), 3500)) },
    });
    expect(codeOf(rs[0])).toBe('ok');
  });

  it('refuses non-UTF-8 files and lists directories with path, directory and size', async () => {
    await writeFile(join(root, 'bin.dat'), Uint8Array.from([0xff]));
    await mkdir(join(root, 'sub'));
    const rs = await responses([hostCall(1, 'fs.read', { path: 'bin.dat' }), hostCall(2, 'fs.list', { path: '.' })]);
    expect(codeOf(rs[0])).toBe('E_FS_NOT_UTF8');
    expect(rs[1]).toEqual({
      id: 2,
      ok: true,
      result: {
        entries: [
          { path: 'bin.dat', directory: false, size: 1 },
          { path: 'notes.txt', directory: false, size: 6 },
          { path: 'sub', directory: true, size: 0 },
        ],
      },
    });
  });
});

describe('answers too large for a frame', () => {
  it('refuses a read whose JSON-escaped answer would exceed 16 MiB (E_HOST_TOO_LARGE), and the plugin goes on', async () => {
    await writeFile(join(root, 'controls.txt'), '\u0001'.repeat(3 * 1024 * 1024)); // 3 MiB → 18 MiB escaped
    const rs = await responses([
      hostCall(1, 'fs.read', { path: 'controls.txt' }),
      hostCall(2, 'fs.read', { path: 'notes.txt' }),
    ]);
    expect(rs.map(codeOf)).toEqual(['E_HOST_TOO_LARGE', 'ok']);
  });
});

describe('private KV', () => {
  it('is refused without storage:true (E_HOST_NO_STORAGE)', async () => {
    const rs = await responses(
      [
        hostCall(1, 'kv.put', { key: 'k', value: 1 }),
        hostCall(2, 'kv.get', { key: 'k' }),
        hostCall(3, 'kv.delete', { key: 'k' }),
      ],
      {
        permissions: { workspace: 'read', storage: false },
      },
    );
    expect(rs.map(codeOf)).toEqual(['E_HOST_NO_STORAGE', 'E_HOST_NO_STORAGE', 'E_HOST_NO_STORAGE']);
  });

  it('is isolated across plugins and across workspaces: the same key reads back nothing elsewhere', async () => {
    const kv: KvStore = new MemoryKvStore();
    await responses([hostCall(1, 'kv.put', { key: 'token', value: 'A-ws1' })], {
      kv,
      id: 'a.plugin',
      workspaceId: 'ws-1',
    });
    const get = [hostCall(1, 'kv.get', { key: 'token' })];
    const otherPlugin = await responses(get, { kv, id: 'b.plugin', workspaceId: 'ws-1' });
    const otherWorkspace = await responses(get, { kv, id: 'a.plugin', workspaceId: 'ws-2' });
    const same = await responses(get, { kv, id: 'a.plugin', workspaceId: 'ws-1' });
    expect(otherPlugin[0]).toEqual({ id: 1, ok: true, result: {} });
    expect(otherWorkspace[0]).toEqual({ id: 1, ok: true, result: {} });
    expect(same[0]).toEqual({ id: 1, ok: true, result: { value: 'A-ws1' } });
  });

  it('enforces the key length and the per-value quota (E_HOST_KV_KEY, E_HOST_KV_QUOTA)', async () => {
    const rs = await responses([
      hostCall(1, 'kv.put', { key: '', value: 1 }),
      hostCall(2, 'kv.put', { key: 'k'.repeat(257), value: 1 }),
      hostCall(3, 'kv.put', { key: 'big', value: 'x'.repeat(256 * 1024) }),
    ]);
    expect(rs.map(codeOf)).toEqual(['E_HOST_KV_KEY', 'E_HOST_KV_KEY', 'E_HOST_KV_QUOTA']);
  });
});
