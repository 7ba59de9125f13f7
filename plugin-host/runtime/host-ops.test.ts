// Host operations without a worker: quota arithmetic and approval edge cases.
import { describe, expect, it } from 'vitest';
import type { WorkspaceFs } from '../fs';
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

const put = (ctx: HostContext, key: string, value: unknown) => performHostCall({ id: 1, op: 'kv.put', args: { key, value } }, ctx);

describe('kv quota', () => {
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
});
