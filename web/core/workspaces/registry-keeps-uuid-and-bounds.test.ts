import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import { MAX_WORKSPACES } from './limits';
import { isWorkspaceId, validateWorkspaceName, workspaceNameFromFolder } from './names';
import {
  createWorkspaceRecord,
  deleteWorkspaceRecord,
  getWorkspace,
  listWorkspaces,
  renameWorkspace,
} from './registry';

let n = 0;
let db: HarnessDb;
const open = async () => (db = await openHarnessDb(`ws-test-${Date.now()}-${n++}`));
afterEach(() => db?.close());

describe('workspace registry', () => {
  it('gives each workspace a UUID at creation and keeps it across rename', async () => {
    await open();
    const created = await createWorkspaceRecord(db, { name: '  Project  ', kind: 'opfs' });
    expect(isWorkspaceId(created.id)).toBe(true);
    expect(created.name).toBe('Project');
    expect(created.access).toBe('read-write');
    const renamed = await renameWorkspace(db, created.id, 'Renamed');
    expect(renamed.id).toBe(created.id);
    expect((await getWorkspace(db, created.id))?.name).toBe('Renamed');
  });

  it('lists workspaces sorted by name, case-insensitively', async () => {
    await open();
    for (const name of ['beta', 'Alpha', 'gamma']) await createWorkspaceRecord(db, { name, kind: 'opfs' });
    expect((await listWorkspaces(db)).map((w) => w.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('refuses a duplicate name (NFC, case-insensitive) on create and rename', async () => {
    await open();
    await createWorkspaceRecord(db, { name: 'Caf\u00e9', kind: 'opfs' });
    await expect(createWorkspaceRecord(db, { name: 'CAFE\u0301', kind: 'opfs' })).rejects.toMatchObject({
      code: 'E_WORKSPACE_NAME_TAKEN',
    });
    const other = await createWorkspaceRecord(db, { name: 'Other', kind: 'opfs' });
    await expect(renameWorkspace(db, other.id, 'café')).rejects.toMatchObject({ code: 'E_WORKSPACE_NAME_TAKEN' });
    expect(await listWorkspaces(db)).toHaveLength(2);
  });

  it('refuses empty, over-long and control-character names', async () => {
    await open();
    for (const name of ['   ', 'x'.repeat(121), 'a\nb']) {
      await expect(createWorkspaceRecord(db, { name, kind: 'opfs' })).rejects.toMatchObject({
        code: 'E_WORKSPACE_NAME_INVALID',
      });
    }
  });

  it('refuses names made only of invisible characters, keeps names with emoji or CJK', async () => {
    await open();
    for (const name of ['\u200b', '\u200b\u2060\ufeff', '\u3164', '\u3000\u200d\u3000', '\ufe0f']) {
      await expect(createWorkspaceRecord(db, { name, kind: 'opfs' })).rejects.toMatchObject({
        code: 'E_WORKSPACE_NAME_INVALID',
      });
    }
    const kept = await createWorkspaceRecord(db, { name: '🚀 项目', kind: 'opfs' });
    await expect(renameWorkspace(db, kept.id, '\u200b')).rejects.toMatchObject({ code: 'E_WORKSPACE_NAME_INVALID' });
    expect((await listWorkspaces(db)).map((w) => w.name)).toEqual(['🚀 项目']);
  });

  it('names a folder workspace after a folder name too long for a workspace name, cut on a code point', async () => {
    await open();
    const folder = `${'a'.repeat(118)}🚀🚀tail`;
    const name = workspaceNameFromFolder(folder);
    expect(name).toBe(`${'a'.repeat(118)}…`);
    expect(validateWorkspaceName(name)).toBe(name);
    expect(workspaceNameFromFolder(`${'b'.repeat(118)}🚀x`)).toBe(`${'b'.repeat(118)}…`);
    expect(workspaceNameFromFolder(`${'c'.repeat(117)}🚀xy`)).toBe(`${'c'.repeat(117)}🚀…`);
    expect(workspaceNameFromFolder('  project  ')).toBe('project');
    expect(
      (await createWorkspaceRecord(db, { name: workspaceNameFromFolder('z'.repeat(255)), kind: 'opfs' })).name,
    ).toHaveLength(120);
  });

  it('is bounded: creating past the limit fails with E_WORKSPACE_LIMIT and stores nothing', async () => {
    expect(MAX_WORKSPACES).toBe(10_000);
    await open();
    for (let i = 0; i < 3; i++) await createWorkspaceRecord(db, { name: `w${i}`, kind: 'opfs' }, { limit: 3 });
    await expect(createWorkspaceRecord(db, { name: 'one too many', kind: 'opfs' }, { limit: 3 })).rejects.toMatchObject(
      { code: 'E_WORKSPACE_LIMIT' },
    );
    expect(await listWorkspaces(db)).toHaveLength(3);
  });

  it('deletes the workspace together with its settings, sessions, entries and plugin data, and nothing else', async () => {
    await open();
    const a = await createWorkspaceRecord(db, { name: 'A', kind: 'opfs' });
    const b = await createWorkspaceRecord(db, { name: 'B', kind: 'opfs' });
    for (const w of [a, b]) {
      await db.put('settings', { scope: `workspace:${w.id}`, version: 1, values: {}, updatedAt: 0 });
      await db.put('settings', { scope: `agent-workspace:${w.id}`, version: 1, values: {}, updatedAt: 0 });
      await db.put('sessions', {
        id: `s-${w.id}`,
        workspaceId: w.id,
        title: 't',
        createdAt: 0,
        updatedAt: 0,
        checkpointSeq: -1,
      });
      await db.put('session_entries', { sessionId: `s-${w.id}`, seq: 0 });
      await db.put('plugin_kv', { workspaceId: w.id, pluginId: 'p', key: 'k', value: new Uint8Array() });
      await db.put('plugin_enablement', { workspaceId: w.id, pluginId: 'p', enabled: true });
      await db.put('memory', { workspaceId: w.id, id: 'm' });
      await db.put('metrics', { workspaceId: w.id, name: 'cache-stats' });
      await db.put('content', { ref: `r-${w.id}`, workspaceId: w.id });
    }
    await deleteWorkspaceRecord(db, a.id);
    expect(await getWorkspace(db, a.id)).toBeUndefined();
    expect(await db.count('settings')).toBe(2);
    for (const store of [
      'sessions',
      'session_entries',
      'plugin_kv',
      'plugin_enablement',
      'memory',
      'metrics',
      'content',
    ] as const) {
      expect(await db.count(store), store).toBe(1);
    }
    expect(await db.get('plugin_kv', [b.id, 'p', 'k'])).toBeTruthy();
    await expect(deleteWorkspaceRecord(db, a.id)).rejects.toMatchObject({ code: 'E_WORKSPACE_NOT_FOUND' });
  });
});
