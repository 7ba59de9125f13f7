// The real Rust example packages (built by `npm run plugins`) through the whole browser path: import into the
// registry, enable for an OPFS workspace, pin, invoke in a module Worker, approve the write, see the file change.
import { describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs } from '../fs';
import { browserWorkerFactory } from './browser-worker';
import { invokePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { ModuleCache } from './module-cache';
import { createPluginRegistry } from './plugin-registry';
import { MemoryRegistryStorage } from './registry-storage';

async function fetchExample(name: string): Promise<Uint8Array | null> {
  const response = await fetch(`/dist/plugins/${name}.hplugin.zip`);
  if (!response.ok || response.headers.get('content-type')?.includes('text/html')) return null;
  return new Uint8Array(await response.arrayBuffer());
}

const replaceText = await fetchExample('replace-text');
const notes = await fetchExample('notes');

describe.skipIf(!replaceText || !notes)('Rust example plugins in Chromium (npm run plugins)', () => {
  it('replace-text: import, enable, invoke, approve the diff, and the OPFS file changes', async () => {
    const opfs = await navigator.storage.getDirectory();
    const dirName = `examples-${crypto.randomUUID()}`;
    const dir = await opfs.getDirectoryHandle(dirName, { create: true });
    try {
      const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
      await fs.writeText('doc.txt', 'colour and colour');
      const kv = new MemoryKvStore();
      const registry = createPluginRegistry({ storage: new MemoryRegistryStorage(), kv });
      const imported = await registry.import(replaceText!);
      expect(imported.plugin.tools[0]!.publicName).toBe('example_replace-text--replace_text');
      await registry.enable('opfs-ws', 'example.replace-text');
      const snapshot = await registry.pin('opfs-ws');
      const { plugin, tool } = snapshot.resolve('example_replace-text--replace_text')!;
      const asked: { path: string; oldText: string | null; newText: string }[] = [];
      const result = await invokePlugin({
        plugin,
        tool: tool.name,
        arguments: { path: 'doc.txt', find: 'colour', replace: 'color' },
        workspaceId: 'opfs-ws',
        fs,
        kv,
        approval: { mode: 'ask', approve: async (r) => (asked.push(r), true) },
        createWorker: browserWorkerFactory,
        moduleCache: new ModuleCache(),
      });
      expect(result).toMatchObject({ status: 'done', sideEffects: true });
      expect(asked).toMatchObject([{ path: 'doc.txt', oldText: 'colour and colour', newText: 'color and color' }]);
      expect(await fs.readText('doc.txt')).toBe('color and color');
    } finally {
      await opfs.removeEntry(dirName, { recursive: true });
    }
  });

  it('notes: KV persists across invocations in one workspace and is invisible from another', async () => {
    const kv = new MemoryKvStore();
    const registry = createPluginRegistry({ storage: new MemoryRegistryStorage(), kv });
    await registry.import(notes!);
    await registry.enable('ws-a', 'example.notes');
    await registry.enable('ws-b', 'example.notes');
    const call = async (workspaceId: string, tool: string, args: object) => {
      const { plugin } = (await registry.pin(workspaceId)).resolve(`example_notes--${tool}`)!;
      return invokePlugin({
        plugin,
        tool,
        arguments: args,
        workspaceId,
        fs: null,
        kv,
        approval: { mode: 'auto' },
        createWorker: browserWorkerFactory,
      });
    };
    expect((await call('ws-a', 'add_note', { text: 'buy milk' })).status).toBe('done');
    const a = await call('ws-a', 'list_notes', {});
    const b = await call('ws-b', 'list_notes', {});
    expect(a.status === 'done' && a.output.includes('buy milk')).toBe(true);
    expect(b.status === 'done' && !b.output.includes('buy milk')).toBe(true);
  });
});
