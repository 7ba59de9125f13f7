import { describe, expect, it } from 'vitest';
import { FileKvStore } from './node-kv-store';
import { MemoryKvStore, type KvStore } from './kv-store';
import { tempWorkspace } from './test-kit';

// The same behaviour for every KvStore implementation the runtime ships.
async function behaves(kv: KvStore): Promise<void> {
  const a = { workspaceId: 'ws-1', pluginId: 'a.plugin' };
  await kv.put(a, '__proto__', '{"x":1}');
  await kv.put(a, 'k', '2');
  expect(await kv.get(a, '__proto__')).toBe('{"x":1}');
  expect(await kv.get({ ...a, pluginId: 'b.plugin' }, 'k')).toBeUndefined();
  expect(await kv.get({ ...a, workspaceId: 'ws-2' }, 'k')).toBeUndefined();
  expect(await kv.usage(a)).toEqual({ entries: 2, bytes: 9 + 7 + 1 + 1 });
  await kv.delete(a, 'k');
  expect(await kv.get(a, 'k')).toBeUndefined();
  await kv.put({ ...a, workspaceId: 'ws-2' }, 'k', '3');
  await kv.clear({ pluginId: 'a.plugin', workspaceId: 'ws-1' });
  expect(await kv.get(a, '__proto__')).toBeUndefined();
  expect(await kv.get({ ...a, workspaceId: 'ws-2' }, 'k')).toBe('3');
  await kv.clear({ pluginId: 'a.plugin' });
  expect(await kv.get({ ...a, workspaceId: 'ws-2' }, 'k')).toBeUndefined();
}

describe('KvStore implementations', () => {
  it('MemoryKvStore keeps scopes apart and clears by plugin', async () => behaves(new MemoryKvStore()));

  it('FileKvStore keeps scopes apart, clears by plugin and persists across instances', async () => {
    const dir = await tempWorkspace();
    try {
      await behaves(new FileKvStore(dir.root));
      const scope = { workspaceId: 'w', pluginId: 'p' };
      await new FileKvStore(dir.root).put(scope, 'saved', '"yes"');
      expect(await new FileKvStore(dir.root).get(scope, 'saved')).toBe('"yes"');
    } finally {
      await dir.dispose();
    }
  });
});
