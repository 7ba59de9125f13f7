// Host operations without a worker: quota arithmetic and approval edge cases.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkspaceFs } from '../fs';
import { createNodeWorkspaceFs } from '../fs/node';
import { performHostCall, type HostContext } from './host-ops';
import { MemoryKvStore } from './kv-store';
import { KV_QUOTA } from './limits';

function context(overrides: Partial<HostContext> = {}): HostContext {
  return {
    pluginId: 'p',
    workspaceId: 'w',
    permissions: { workspace: 'read-write', storage: true },
    fs: null,
    kv: new MemoryKvStore(),
    approval: { mode: 'auto' },
    signal: new AbortController().signal,
    pauseBudget: () => () => {},
    onSideEffect: () => {},
    ...overrides,
  };
}

const put = (ctx: HostContext, key: string, value: unknown) =>
  performHostCall({ id: 1, op: 'kv.put', args: { key, value } }, ctx);

describe('kv quota', () => {
  it('counts key length in UTF-8 bytes: 256 accepted, 257 refused, whatever the characters', async () => {
    const codeOf = async (key: string) => {
      const r = await performHostCall({ id: 1, op: 'kv.get', args: { key } }, context());
      return r.ok ? 'ok' : r.error.split(':')[0];
    };
    expect(await codeOf('k'.repeat(256))).toBe('ok');
    expect(await codeOf('k'.repeat(257))).toBe('E_HOST_KV_KEY');
    expect(await codeOf('€'.repeat(85) + 'k')).toBe('ok'); // 85 × 3 + 1 = 256 bytes
    expect(await codeOf('€'.repeat(85) + 'kk')).toBe('E_HOST_KV_KEY');
    expect(await codeOf('😀'.repeat(64))).toBe('ok'); // 64 × 4 = 256 bytes in 128 UTF-16 units
    expect(await codeOf('😀'.repeat(64) + 'k')).toBe('E_HOST_KV_KEY');
    expect(await codeOf('')).toBe('E_HOST_KV_KEY');
  });

  it('refuses a put that would pass the total bytes, counting a replaced value only once', async () => {
    const ctx = context();
    const chunk = 'x'.repeat(KV_QUOTA.maxValueBytes - 10);
    const fits = Math.floor(KV_QUOTA.maxTotalBytes / (chunk.length + 2 + 2));
    for (let i = 0; i < fits; i++) expect((await put(ctx, `k${i}`.padEnd(2, '_'), chunk)).ok).toBe(true);
    const over = await put(ctx, 'zz', chunk);
    expect(over).toMatchObject({ ok: false });
    expect(over.ok === false && over.error.startsWith('E_HOST_KV_QUOTA:')).toBe(true);
    expect((await put(ctx, 'k0', chunk)).ok).toBe(true);
  });

  it('refuses the key past the entry limit', async () => {
    const kv = new MemoryKvStore();
    const ctx = context({ kv });
    for (let i = 0; i < KV_QUOTA.maxEntries; i++) await kv.put({ workspaceId: 'w', pluginId: 'p' }, `k${i}`, '1');
    const r = await put(ctx, 'one-more', 1);
    expect(r.ok === false && r.error.startsWith('E_HOST_KV_QUOTA:')).toBe(true);
    expect((await put(ctx, 'k1', 2)).ok).toBe(true);
  });
});

describe('fs.write approval', () => {
  it('does not write when the invocation was cancelled while the person was approving, even if they approve', async () => {
    const writes: string[] = [];
    const fs = {
      access: 'read-write',
      rootName: 'w',
      stat: async () => null,
      readText: async () => '',
      writeText: async (path: string) => void writes.push(path),
    } as unknown as WorkspaceFs;
    const controller = new AbortController();
    const ctx = context({
      fs,
      signal: controller.signal,
      approval: {
        mode: 'ask',
        approve: async () => {
          controller.abort();
          return true;
        },
      },
    });
    const r = await performHostCall({ id: 1, op: 'fs.write', args: { path: 'a.txt', text: 'x' } }, ctx);
    expect(r.ok === false && r.error.startsWith('E_HOST_WRITE_DENIED:')).toBe(true);
    expect(writes).toEqual([]);
  });

  it('treats an approve callback that throws as a denial', async () => {
    const fs = { access: 'read-write', stat: async () => null, writeText: async () => {} } as unknown as WorkspaceFs;
    const r = await performHostCall(
      { id: 1, op: 'fs.write', args: { path: 'a.txt', text: 'x' } },
      context({ fs, approval: { mode: 'ask', approve: () => Promise.reject(new Error('dialog closed')) } }),
    );
    expect(r.ok === false && r.error.startsWith('E_HOST_WRITE_DENIED:')).toBe(true);
  });

  describe('a file that changes while the person approves', () => {
    const write = (ctx: HostContext, path: string, text: string) =>
      performHostCall({ id: 7, op: 'fs.write', args: { path, text } }, ctx);
    async function workspace() {
      const dir = await mkdtemp(join(tmpdir(), 'host-ops-conflict-'));
      return {
        dir,
        fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
        done: () => rm(dir, { recursive: true, force: true }),
      };
    }

    it('refuses with E_HOST_WRITE_CONFLICT and keeps the person’s edit', async () => {
      const { dir, fs, done } = await workspace();
      try {
        await writeFile(join(dir, 'notes.txt'), 'v1\n');
        const asked: (string | null)[] = [];
        const ctx = context({
          fs,
          approval: {
            mode: 'ask',
            approve: async (request) => {
              asked.push(request.oldText);
              await writeFile(join(dir, 'notes.txt'), 'v1\nthe person kept typing\n'); // edited during the dialog
              return true;
            },
          },
        });
        const r = await write(ctx, 'notes.txt', 'plugin text\n');
        expect(asked).toEqual(['v1\n']);
        expect(r).toMatchObject({ id: 7, ok: false });
        expect(r.ok === false && r.error.startsWith('E_HOST_WRITE_CONFLICT:')).toBe(true);
        expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('v1\nthe person kept typing\n');
      } finally {
        await done();
      }
    });

    it('refuses a new file that appeared meanwhile, and writes when nothing changed', async () => {
      const { dir, fs, done } = await workspace();
      try {
        const appear = context({
          fs,
          approval: { mode: 'ask', approve: async () => (await writeFile(join(dir, 'new.txt'), 'mine'), true) },
        });
        const r = await write(appear, 'new.txt', 'plugin');
        expect(r.ok === false && r.error.startsWith('E_HOST_WRITE_CONFLICT:')).toBe(true);
        expect(await readFile(join(dir, 'new.txt'), 'utf8')).toBe('mine');

        const calm = context({ fs, approval: { mode: 'ask', approve: async () => true } });
        expect(await write(calm, 'new.txt', 'plugin')).toMatchObject({ ok: true, result: { bytes: 6 } });
        expect(await readFile(join(dir, 'new.txt'), 'utf8')).toBe('plugin');
      } finally {
        await done();
      }
    });
  });
});
