import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createWorkspaceRecord } from '../workspaces';
import { DEFAULT_GLOBAL_SETTINGS, effectiveSettings } from './schema';
import { deleteSecret, getSecret, listSecretNames, setSecret } from './secrets';
import { readGlobalSettings, readWorkspaceSettings, updateGlobalSettings, updateWorkspaceSettings } from './store';
import { exportSettings, importSettings, serializeSettings } from './transfer';

let n = 0;
let db: HarnessDb;
const open = async () => (db = await openHarnessDb(`settings-test-${Date.now()}-${n++}`));
afterEach(() => db?.close());

describe('settings', () => {
  it('starts from defaults and stores global and per-workspace values', async () => {
    await open();
    expect(await readGlobalSettings(db)).toEqual(DEFAULT_GLOBAL_SETTINGS);
    await updateGlobalSettings(db, { language: 'zh', showHiddenFiles: false });
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await updateWorkspaceSettings(db, w.id, { showHiddenFiles: true });
    const global = await readGlobalSettings(db);
    expect(global.language).toBe('zh');
    expect(effectiveSettings(global, await readWorkspaceSettings(db, w.id)).showHiddenFiles).toBe(true);
    await updateWorkspaceSettings(db, w.id, { showHiddenFiles: undefined });
    expect(await readWorkspaceSettings(db, w.id)).toEqual({});
  });

  it('refuses invalid values and workspace-only misuse with the path in the message', async () => {
    await open();
    await expect(updateGlobalSettings(db, { language: 'fr' as never })).rejects.toThrow(
      /At global\.language: expected one of/,
    );
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await expect(updateWorkspaceSettings(db, w.id, { language: 'en' } as never)).rejects.toMatchObject({
      code: 'E_SETTINGS_INVALID',
    });
  });

  it('exports non-secret settings only, and an export imports back into a fresh database', async () => {
    await open();
    await setSecret(db, 'OPENAI_API_KEY', 'sk-very-secret');
    await updateGlobalSettings(db, { theme: 'dark' });
    const w = await createWorkspaceRecord(db, { name: 'Project', kind: 'opfs' });
    await updateWorkspaceSettings(db, w.id, { showHiddenFiles: true });
    const text = serializeSettings(await exportSettings(db));
    expect(text).not.toContain('sk-very-secret');
    expect(text).not.toContain('OPENAI_API_KEY');
    db.close();

    await open();
    await createWorkspaceRecord(db, { name: 'project', kind: 'opfs' }); // another browser: new UUID, same name
    const report = await importSettings(db, text);
    expect(report).toMatchObject({
      globalApplied: true,
      applied: ['project'],
      skipped: [],
      heldBack: [],
      notice: null,
    });
    expect((await readGlobalSettings(db)).theme).toBe('dark');
    expect(await listSecretNames(db)).toEqual([]);
  });

  it('changes nothing when the file is bad, and says where it is bad', async () => {
    await open();
    await updateGlobalSettings(db, { theme: 'light' });
    const bad = JSON.stringify({
      format: 'i-settings',
      version: 1,
      global: { theme: 'dark', apiKey: 'x' },
      workspaces: [{ id: 'a', name: 'A', settings: { showHiddenFiles: 'yes' } }],
    });
    const error = await importSettings(db, bad).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_SETTINGS_IMPORT_INVALID' });
    expect(String((error as Error).message)).toContain('At global.apiKey: unknown setting');
    expect(String((error as Error).message)).toContain(
      'At workspaces.0.settings.showHiddenFiles: expected true or false',
    );
    expect((await readGlobalSettings(db)).theme).toBe('light');
    for (const text of [
      'not json',
      '[]',
      JSON.stringify({ format: 'other', version: 1 }),
      JSON.stringify({ format: 'i-settings', version: 99 }),
      'x'.repeat(1024 * 1024 + 1),
    ]) {
      await expect(importSettings(db, text)).rejects.toMatchObject({ code: 'E_SETTINGS_IMPORT_INVALID' });
    }
    expect((await readGlobalSettings(db)).theme).toBe('light');
  });

  it('keeps secrets by name in their own store and validates names', async () => {
    await open();
    await setSecret(db, 'ANTHROPIC_API_KEY', 'k1');
    expect(await getSecret(db, 'ANTHROPIC_API_KEY')).toBe('k1');
    expect(await listSecretNames(db)).toEqual(['ANTHROPIC_API_KEY']);
    await expect(setSecret(db, 'bad name', 'v')).rejects.toMatchObject({ code: 'E_SECRET_NAME_INVALID' });
    // The bridge token's old name is reserved: a person cannot create it, and internal entries never show.
    await expect(setSecret(db, 'I_BRIDGE_TOKEN', 'v')).rejects.toMatchObject({ code: 'E_SECRET_NAME_RESERVED' });
    await db.put('secrets', { name: 'i:internal', value: 'x', updatedAt: 1 });
    await db.put('secrets', { name: 'I_BRIDGE_TOKEN', value: 'y', updatedAt: 1 });
    expect(await listSecretNames(db)).toEqual(['ANTHROPIC_API_KEY']);
    expect([await getSecret(db, 'i:internal'), await getSecret(db, 'I_BRIDGE_TOKEN')]).toEqual([undefined, undefined]);
    await expect(setSecret(db, 'EMPTY', '')).rejects.toMatchObject({ code: 'E_SECRET_EMPTY' });
    await deleteSecret(db, 'ANTHROPIC_API_KEY');
    expect(await getSecret(db, 'ANTHROPIC_API_KEY')).toBeUndefined();
  });
});
