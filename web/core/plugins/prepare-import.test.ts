import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  HarnessError,
  packPackage,
  readPackageZip,
  validatePackage,
  type ValidatedPackage,
} from '../../../plugin-host';
import { createPluginService } from './plugin-service';
import { examplePackage, freshDb } from './test-kit';

/** The notes example under another version, with other code (a custom section named "x" appended). */
async function notesVersion(version: string, extra: number): Promise<Uint8Array> {
  const entries = await readPackageZip(await examplePackage('notes'));
  const manifest = { ...JSON.parse(new TextDecoder().decode(entries['manifest.json'])), version };
  const wasm = new Uint8Array([...entries['plugin.wasm'], 0x00, 0x03, 0x01, 0x78, extra]);
  return (await packPackage({ manifest, wasm, license: entries.LICENSE })).bytes;
}

async function setUp() {
  const db = await freshDb();
  const calls: number[] = [];
  const validate = (bytes: Uint8Array): Promise<ValidatedPackage> => {
    calls.push(bytes.byteLength);
    return validatePackage(bytes);
  };
  const service = createPluginService(db, { validate });
  return { db, service, calls };
}

const scope = { workspaceId: 'ws-a', pluginId: 'example.notes' };

describe('preparing a plugin import before anything changes', () => {
  it('plans an update of an installed id with other code and stores nothing until it is applied, keeping KV', async () => {
    const { db, service, calls } = await setUp();
    await (await service.prepareImport(await notesVersion('1.0.0', 1))).apply();
    await service.registry.enable('ws-a', 'example.notes');
    await service.kv.put(scope, 'note', '"keep me"');
    const v1 = await service.registry.get('example.notes');

    const prepared = await service.prepareImport(await notesVersion('2.0.0', 2));
    expect(prepared.plan.decision).toBe('update');
    expect(prepared.plan.versionChange).toBe('upgrade');
    expect(prepared.plan.installed).toMatchObject({ version: '1.0.0', sha256: v1?.sha256 });
    expect(prepared.plan.incoming.version).toBe('2.0.0');
    expect(prepared.plan.incoming.sha256).not.toBe(v1?.sha256);
    expect(prepared.storedEntries).toBe(1);
    // Not applied (the person cancelled): the old version is still the installed one.
    expect(await service.registry.get('example.notes')).toEqual(v1);

    const result = await prepared.apply();
    expect(result).toMatchObject({ status: 'updated', previousVersion: '1.0.0' });
    expect((await service.registry.get('example.notes'))?.sha256).toBe(prepared.plan.incoming.sha256);
    expect(await service.kv.get(scope, 'note')).toBe('"keep me"');
    expect((await service.registry.enabledIn('ws-a')).map((p) => p.version)).toEqual(['2.0.0']);
    // Each package was validated once: applying hands the registry the verified result.
    expect(calls).toHaveLength(2);
    db.close();
  });

  it('says the exact same package is already installed and writes nothing', async () => {
    const { db, service } = await setUp();
    const bytes = await notesVersion('1.0.0', 1);
    await (await service.prepareImport(bytes.slice())).apply();
    const before = await service.registry.get('example.notes');
    const again = await service.prepareImport(bytes.slice());
    expect(again.plan.decision).toBe('unchanged');
    expect((await again.apply()).status).toBe('unchanged');
    expect(await service.registry.get('example.notes')).toEqual(before);
    db.close();
  });

  it('replaces the same version with other code, or a newer one with an older one, only through a confirmed plan', async () => {
    const { db, service } = await setUp();
    await (await service.prepareImport(await notesVersion('2.0.0', 1))).apply();
    const older = await service.prepareImport(await notesVersion('1.0.0', 2));
    expect(older.plan).toMatchObject({ decision: 'update', versionChange: 'downgrade' });
    expect((await older.apply()).plugin.version).toBe('1.0.0');
    const sameVersion = await service.prepareImport(await notesVersion('1.0.0', 3));
    expect(sameVersion.plan).toMatchObject({ decision: 'update', versionChange: 'same-version' });
    expect((await sameVersion.apply()).status).toBe('replaced');
    db.close();
  });

  it('refuses to apply a plan when the installed plugin changed since it was shown', async () => {
    const { db, service } = await setUp();
    await (await service.prepareImport(await notesVersion('1.0.0', 1))).apply();
    const first = await service.prepareImport(await notesVersion('2.0.0', 2));
    const second = await service.prepareImport(await notesVersion('3.0.0', 3));
    await second.apply();
    const refused = await first.apply().catch((e: unknown) => e);
    expect(HarnessError.isInstance(refused) && refused.code).toBe('E_PLUGIN_IMPORT_STALE');
    expect((await service.registry.get('example.notes'))?.version).toBe('3.0.0');
    db.close();
  });

  it('keeps refusing what the validator refuses, with its code, and installs nothing', async () => {
    const { db, service } = await setUp();
    const bytes = await notesVersion('1.0.0', 1);
    bytes[bytes.length - 30]! ^= 0xff;
    const refused = await service.prepareImport(bytes).catch((e: unknown) => e);
    expect(HarnessError.isInstance(refused) && refused.code).toMatch(/^E_PACKAGE_/);
    expect(await service.registry.list()).toEqual([]);
    db.close();
  });
});
