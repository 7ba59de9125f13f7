import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createPluginRegistry, HarnessError, packPackage, readPackageZip, validatePackage } from '../../../plugin-host';
import { IdbKvStore } from './idb-kv-store';
import { IdbRegistryStorage } from './idb-registry-storage';
import { examplePackage, freshDb } from './test-kit';

/** The same manifest and version with other code: the wasm gains a custom section (name "x"), so its sha256 changes. */
async function sameVersionOtherBytes(original: Uint8Array): Promise<Uint8Array> {
  const entries = await readPackageZip(original);
  const wasm = new Uint8Array([...entries['plugin.wasm'], 0x00, 0x03, 0x01, 0x78, 0x01]);
  return (await packPackage({ manifest: entries['manifest.json'], wasm, license: entries.LICENSE })).bytes;
}

/** The same package under another id: `example.word-count` becomes `example.word-count2`, whose id it begins. */
async function underLongerId(original: Uint8Array): Promise<Uint8Array> {
  const entries = await readPackageZip(original);
  const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as { id: string };
  manifest.id = `${manifest.id}2`;
  const bytes = new TextEncoder().encode(JSON.stringify(manifest));
  return (await packPackage({ manifest: bytes, wasm: entries['plugin.wasm'], license: entries.LICENSE })).bytes;
}

async function setUp() {
  const db = await freshDb();
  const storage = new IdbRegistryStorage(db);
  const registry = createPluginRegistry({ storage, kv: new IdbKvStore(db) });
  return { db, storage, registry };
}

describe('plugin registry over IndexedDB', () => {
  it('imports without enabling, enables only the named workspace, and keeps the exact wasm bytes', async () => {
    const { db, storage, registry } = await setUp();
    const bytes = await examplePackage('word-count');
    const result = await registry.import(bytes);
    expect(result.status).toBe('installed');
    expect(await registry.enabledIn('ws-a')).toEqual([]);
    await registry.enable('ws-a', 'example.word-count');
    expect((await registry.enabledIn('ws-a')).map((p) => p.id)).toEqual(['example.word-count']);
    expect(await registry.enabledIn('ws-b')).toEqual([]);
    const stored = await storage.getPlugin('example.word-count');
    expect(stored?.wasm).toEqual((await validatePackage(bytes)).wasm);
    expect((await registry.list()).map((p) => [p.id, p.version, p.sha256, p.tools[0]?.publicName])).toEqual([
      ['example.word-count', '1.0.0', result.plugin.sha256, 'example_word-count--count_words'],
    ]);
    db.close();
  });

  it('refuses the same id and version with other bytes unless replaced, and then keeps one record', async () => {
    const { db, registry } = await setUp();
    const original = await examplePackage('notes');
    await registry.import(original);
    expect((await registry.import(original)).status).toBe('unchanged');
    const other = await sameVersionOtherBytes(original);
    const refused = await registry.import(other).catch((e: unknown) => e);
    expect(HarnessError.isInstance(refused) && refused.code).toBe('E_REGISTRY_CONFLICT');
    const replaced = await registry.import(other, { replace: true });
    expect(replaced.status).toBe('replaced');
    expect(await db.count('plugins')).toBe(1);
    expect((await registry.get('example.notes'))?.sha256).toBe(replaced.plugin.sha256);
    db.close();
  });

  it('uninstalling removes the code and the enablement everywhere, and a pinned snapshot keeps running code', async () => {
    const { db, registry } = await setUp();
    await registry.import(await examplePackage('list-tree'));
    await registry.enable('ws-a', 'example.list-tree');
    await registry.enable('ws-b', 'example.list-tree');
    const snapshot = await registry.pin('ws-a');
    await registry.uninstall('example.list-tree');
    expect(await db.count('plugins')).toBe(0);
    expect(await db.count('plugin_enablement')).toBe(0);
    expect(await registry.list()).toEqual([]);
    expect(snapshot.resolve('example_list-tree--list_tree')?.plugin.wasm.byteLength).toBeGreaterThan(1000);
    db.close();
  });

  it('uninstalling a plugin with its data leaves one whose id begins with the same name whole', async () => {
    const { db, registry } = await setUp();
    const original = await examplePackage('word-count');
    await registry.import(original);
    await registry.import(await underLongerId(original));
    const kv = new IdbKvStore(db);
    for (const pluginId of ['example.word-count', 'example.word-count2']) {
      await registry.enable('ws-a', pluginId);
      await kv.put({ workspaceId: 'ws-a', pluginId }, 'k', '"v"');
    }
    await registry.uninstall('example.word-count', { deleteData: true });
    expect((await registry.list()).map((p) => p.id)).toEqual(['example.word-count2']);
    expect((await registry.enabledIn('ws-a')).map((p) => p.id)).toEqual(['example.word-count2']);
    expect(await kv.get({ workspaceId: 'ws-a', pluginId: 'example.word-count2' }, 'k')).toBe('"v"');
    expect(await kv.get({ workspaceId: 'ws-a', pluginId: 'example.word-count' }, 'k')).toBeUndefined();
    db.close();
  });

  it('disabling in one workspace leaves the others enabled', async () => {
    const { db, registry } = await setUp();
    await registry.import(await examplePackage('word-count'));
    await registry.enable('ws-a', 'example.word-count');
    await registry.enable('ws-b', 'example.word-count');
    await registry.disable('ws-a', 'example.word-count');
    expect(await registry.enabledIn('ws-a')).toEqual([]);
    expect((await registry.enabledIn('ws-b')).map((p) => p.id)).toEqual(['example.word-count']);
    db.close();
  });
});
