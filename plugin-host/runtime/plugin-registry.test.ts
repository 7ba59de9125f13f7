import { describe, expect, it } from 'vitest';
import { hostCall, recorderWasm } from '../fixtures/wat/wat';
import { MemoryKvStore } from './kv-store';
import { createPluginRegistry } from './plugin-registry';
import { MemoryRegistryStorage } from './registry-storage';
import { packFixture, run } from './test-kit';

const setup = () => {
  const kv = new MemoryKvStore();
  return { kv, registry: createPluginRegistry({ storage: new MemoryRegistryStorage(), kv, now: () => 1000 }) };
};

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? 'no code',
  );

describe('plugin registry', () => {
  it('imports a validated package and lists identity, version, permissions, tools and sha256, without enabling it', async () => {
    const { registry } = setup();
    const wasm = await recorderWasm([]);
    const result = await registry.import(await packFixture(wasm, { id: 'example.word-count', tools: ['count_words'] }));
    expect(result.status).toBe('installed');
    const [listed] = await registry.list();
    expect(listed).toMatchObject({
      id: 'example.word-count',
      name: 'Recorder',
      version: '1.0.0',
      permissions: { workspace: 'read-write', storage: true },
      tools: [{ name: 'count_words', publicName: 'example_word-count--count_words', description: 'Runs the script.' }],
      importedAt: 1000,
    });
    expect(listed!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await registry.enabledIn('ws-1')).toEqual([]);
    expect((await registry.pin('ws-1')).tools).toEqual([]);
  });

  it('refuses an invalid package with the validator code', async () => {
    const { registry } = setup();
    expect(await codeOf(registry.import(new Uint8Array([1, 2, 3])))).toBe('E_PACKAGE_NOT_ZIP');
  });

  it('refuses the same id and version with different bytes unless replace is explicit', async () => {
    const { registry } = setup();
    await registry.import(await packFixture(await recorderWasm([])));
    const other = await packFixture(await recorderWasm([{ type: 'done', output: 'v2' }]));
    expect(await codeOf(registry.import(other))).toBe('E_REGISTRY_CONFLICT');
    expect((await registry.import(other, { replace: true })).status).toBe('replaced');
    expect((await registry.import(other)).status).toBe('unchanged');
  });

  it('enables per workspace explicitly, and pins a snapshot that survives update and removal', async () => {
    const { registry, kv } = setup();
    await registry.import(await packFixture(await recorderWasm([{ type: 'done', output: 'version 1' }])));
    await registry.enable('ws-1', 'test.recorder');
    expect((await registry.enabledIn('ws-2')).length).toBe(0);
    const snapshot = await registry.pin('ws-1');
    expect(snapshot.tools.map((t) => t.publicName)).toEqual(['test_recorder--run']);

    const update = await registry.import(
      await packFixture(await recorderWasm([{ type: 'done', output: 'version 2' }]), { version: '1.1.0' }),
    );
    expect(update).toMatchObject({ status: 'updated', previousVersion: '1.0.0', disabledIn: [] });
    await registry.uninstall('test.recorder');
    expect(await registry.list()).toEqual([]);

    const pinned = snapshot.resolve('test_recorder--run');
    expect(pinned?.plugin.version).toBe('1.0.0');
    const result = await run(pinned!.plugin, { kv });
    expect(result).toMatchObject({ status: 'done', output: 'version 1' });
  });

  it('switches a plugin off where it was enabled when an update asks for more permissions', async () => {
    const { registry } = setup();
    await registry.import(
      await packFixture(await recorderWasm([]), { permissions: { workspace: 'read', storage: false } }),
    );
    await registry.enable('ws-1', 'test.recorder');
    const update = await registry.import(
      await packFixture(await recorderWasm([]), {
        version: '2.0.0',
        permissions: { workspace: 'read-write', storage: false },
      }),
    );
    expect(update.disabledIn).toEqual(['ws-1']);
    expect(await registry.enabledIn('ws-1')).toEqual([]);
  });

  it('refuses a downgrade unless replace is explicit', async () => {
    const { registry } = setup();
    await registry.import(await packFixture(await recorderWasm([]), { version: '2.0.0' }));
    expect(await codeOf(registry.import(await packFixture(await recorderWasm([]), { version: '1.9.9' })))).toBe(
      'E_REGISTRY_DOWNGRADE',
    );
  });

  it('uninstall removes the code, and its KV data only when asked', async () => {
    const { registry, kv } = setup();
    const bytes = await packFixture(await recorderWasm([hostCall(1, 'kv.put', { key: 'k', value: 1 })]));
    const scope = { workspaceId: 'ws-1', pluginId: 'test.recorder' };
    await registry.import(bytes);
    await registry.enable('ws-1', 'test.recorder');
    await run((await registry.pin('ws-1')).plugins[0]!, { kv, workspaceId: 'ws-1' });
    expect((await kv.usage(scope)).entries).toBe(1);
    await registry.uninstall('test.recorder');
    expect((await kv.usage(scope)).entries).toBe(1);
    await registry.import(bytes);
    await registry.uninstall('test.recorder', { deleteData: true });
    expect((await kv.usage(scope)).entries).toBe(0);
    expect(await codeOf(registry.uninstall('test.recorder'))).toBe('E_REGISTRY_NOT_FOUND');
  });

  it('names an unknown id of 1 MiB in a short quote', async () => {
    const { registry } = setup();
    const error = await registry.uninstall('x'.repeat(1024 * 1024)).then(
      () => undefined,
      (e: { code: string; message: string; data: unknown }) => e,
    );
    expect(error?.code).toBe('E_REGISTRY_NOT_FOUND');
    expect(JSON.stringify({ message: error?.message, data: error?.data }).length).toBeLessThan(512);
  });
});
