// Settings export/import with the agent's settings: the model config (key by name only), approval modes and
// Settings → Agent survive export → fresh database → import; a bad agent part changes nothing and is reported with
// its paths; version-1 files still import. Node + fake-indexeddb.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  importSettings,
  listSecretNames,
  readGlobalSettings,
  serializeSettings,
  setSecret,
  updateGlobalSettings,
} from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createWorkspaceRecord } from '../workspaces';
import {
  addApprovalRule,
  AGENT_GLOBAL_SCOPE,
  agentWorkspaceScope,
  readAgentSettings,
  readStoredModel,
  readStoredModules,
  saveAgentModules,
  saveApprovalMode,
  saveApprovalRules,
  saveModel,
} from './agent-settings';
import { exportAllSettings, importAllSettings, previewAllSettingsImport } from './settings-transfer';

/** Imports with every trust-widening change the preview lists confirmed (settings-import-needs-confirmation.test.ts holds the gate). */
const importConfirmed = async (db: HarnessDb, text: string) =>
  importAllSettings(db, text, { confirmed: (await previewAllSettingsImport(db, text)).heldBack.map((c) => c.id) });

const dbs: HarnessDb[] = [];
const freshDb = async () => {
  const db = await openHarnessDb(`settings-transfer-${Math.random()}`);
  dbs.push(db);
  return db;
};
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const MODEL = {
  protocol: 'openai',
  base_url: 'https://api.openai.com/v1',
  model: 'gpt-4.1',
  api_key_env: 'OPENAI_API_KEY',
  budget: { context_window: 128000 },
};
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code: string; message: string },
  );

describe('settings export/import with the agent settings', () => {
  it('carries the model config, approval mode and Settings → Agent to a fresh database, without the key', async () => {
    const db = await freshDb();
    await setSecret(db, 'OPENAI_API_KEY', 'sk-transfer-very-secret');
    await updateGlobalSettings(db, { theme: 'dark' });
    await saveModel(db, null, { config: MODEL, preset: 'openai' });
    await saveAgentModules(db, null, {
      selection: { profile: 'standard', disabled: ['web'] },
      system_prompt: 'Be brief in {{workspace}}.',
    });
    const w = await createWorkspaceRecord(db, { name: 'Project', kind: 'opfs' });
    await saveApprovalMode(db, w.id, 'auto');
    await saveModel(db, w.id, { config: { ...MODEL, model: 'gpt-4.1-mini' }, preset: 'openai' });
    const text = serializeSettings(await exportAllSettings(db, new Date('2026-01-02T03:04:05Z')));
    expect(text).not.toContain('sk-transfer-very-secret');
    expect(JSON.parse(text)).toMatchObject({
      version: 2,
      agent: {
        global: {
          model: { config: MODEL, preset: 'openai' },
          modules: { system_prompt: 'Be brief in {{workspace}}.' },
        },
        workspaces: [{ name: 'Project', approval: 'auto', model: { config: { model: 'gpt-4.1-mini' } } }],
      },
    });

    const other = await freshDb();
    const there = await createWorkspaceRecord(other, { name: 'project', kind: 'opfs' }); // new UUID, same name
    expect(await importConfirmed(other, text)).toMatchObject({
      globalApplied: true,
      applied: ['project'],
      skipped: [],
      heldBack: [],
      notice: null,
    });
    const agent = await readAgentSettings(other, there.id);
    expect(agent).toMatchObject({
      approval: 'auto',
      modelError: null,
      modulesError: null,
      modulesScope: 'global',
      model: { scope: 'workspace', preset: 'openai', config: { model: 'gpt-4.1-mini', api_key_env: 'OPENAI_API_KEY' } },
    });
    expect(agent.modules).toMatchObject({
      selection: { disabled: ['web'] },
      systemPrompt: 'Be brief in {{workspace}}.',
    });
    expect(await readStoredModel(other, null)).toEqual({ config: MODEL, preset: 'openai' });
    expect((await readGlobalSettings(other)).theme).toBe('dark');
    expect(await listSecretNames(other)).toEqual([]);
  });

  it('carries approval rules of both scopes, refuses a bad rule with its path, and a card adds a rule only once', async () => {
    const db = await freshDb();
    const w = await createWorkspaceRecord(db, { name: 'Rules', kind: 'opfs' });
    await saveApprovalRules(db, null, [{ decision: 'deny', tool: 'group:writes', path: 'secrets/**' }]);
    await addApprovalRule(db, w.id, { decision: 'allow', tool: 'edit', path: 'src/**' });
    await addApprovalRule(db, w.id, { decision: 'allow', tool: 'edit', path: 'src/**' });
    expect((await readAgentSettings(db, w.id)).rules.workspace).toHaveLength(1);
    await expect(
      saveApprovalRules(db, w.id, [{ decision: 'allow', tool: 'edit', path: '../**' } as never]),
    ).rejects.toMatchObject({ code: 'E_APPROVAL_RULES_INVALID' });
    const text = serializeSettings(await exportAllSettings(db));
    const other = await freshDb();
    const there = await createWorkspaceRecord(other, { name: 'Rules', kind: 'opfs' });
    await importConfirmed(other, text);
    expect((await readAgentSettings(other, there.id)).rules).toEqual({
      workspace: [{ decision: 'allow', tool: 'edit', path: 'src/**' }],
      global: [{ decision: 'deny', tool: 'group:writes', path: 'secrets/**' }],
    });
    const bad = JSON.parse(text) as { agent: { global: { rules: unknown[] } } };
    bad.agent.global.rules.push({ decision: 'allow', tool: 'rm -rf' });
    const error = await errorOf(importAllSettings(other, JSON.stringify(bad)));
    expect((error as unknown as { data: { issues: { path: string }[] } }).data.issues.map((i) => i.path)).toEqual([
      'agent.global.rules[1].tool',
    ]);
  });

  it('reports stored rules that no longer pass, so a turn refuses to start rather than lose a deny', async () => {
    const db = await freshDb();
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await db.put('settings', {
      scope: agentWorkspaceScope(w.id),
      version: 1,
      values: { rules: [{ decision: 'deny', tool: 'write', path: '' }] },
      updatedAt: 0,
    });
    expect((await readAgentSettings(db, w.id)).rulesError?.code).toBe('E_APPROVAL_RULES_INVALID');
  });

  it('changes nothing when the agent part is bad, and names every problem with its path', async () => {
    const db = await freshDb();
    await updateGlobalSettings(db, { theme: 'light' });
    await saveModel(db, null, { config: MODEL, preset: 'openai' });
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await saveApprovalMode(db, w.id, 'ask');
    const bad = {
      format: 'i-settings',
      version: 2,
      global: { theme: 'dark' },
      workspaces: [],
      agent: {
        global: { model: { config: { ...MODEL, base_url: 'ftp://x' }, preset: 'openai' }, approval: 'yolo' },
        workspaces: [
          { id: w.id, name: 'W', approval: 'sometimes', modules: { cache: { mode: 'nope' } } },
          { id: 'x', name: 'X', model: { config: { ...MODEL, api_key: 'sk-inline' } }, modules: { system_prompt: '' } },
        ],
      },
    };
    const error = await errorOf(importAllSettings(db, JSON.stringify(bad)));
    expect(error?.code).toBe('E_SETTINGS_IMPORT_INVALID');
    const paths = (error as unknown as { data: { issues: { path: string }[] } }).data.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'agent.global.model.config.base_url',
        'agent.global.approval',
        'agent.workspaces.0.approval',
        'agent.workspaces.0.modules.cache.mode',
        'agent.workspaces.1.model.config.api_key',
        'agent.workspaces.1.modules.system_prompt',
      ]),
    );
    expect(error?.message).toContain('At agent.global.model.config.base_url: ');
    expect((await readGlobalSettings(db)).theme).toBe('light');
    expect(await readStoredModel(db, null)).toEqual({ config: MODEL, preset: 'openai' });
    expect((await readAgentSettings(db, w.id)).approval).toBe('ask');
    expect(await readStoredModules(db, w.id)).toBeNull();
  });

  it('imports a frozen version-1 file and leaves the agent settings as they are; refuses an agent part in a version-1 file', async () => {
    const db = await freshDb();
    await saveModel(db, null, { config: MODEL, preset: 'openai' });
    const w = await createWorkspaceRecord(db, { name: 'Old', kind: 'opfs' });
    const v1 = `{
  "format": "i-settings",
  "version": 1,
  "exportedAt": "2026-05-01T10:00:00.000Z",
  "global": { "language": "zh", "theme": "dark", "showHiddenFiles": false },
  "workspaces": [{ "id": "00000000-0000-4000-8000-000000000000", "name": "old", "settings": { "showHiddenFiles": true } }]
}
`;
    expect(await importAllSettings(db, v1)).toMatchObject({
      globalApplied: true,
      applied: ['Old'],
      skipped: [],
      heldBack: [],
    });
    expect(await readGlobalSettings(db)).toMatchObject({ language: 'zh', theme: 'dark' });
    expect(await readStoredModel(db, null)).toEqual({ config: MODEL, preset: 'openai' });
    expect(await db.get('settings', agentWorkspaceScope(w.id))).toBeUndefined();
    const withAgent = JSON.stringify({ ...JSON.parse(v1), agent: { global: { modules: {} } } });
    expect((await errorOf(importAllSettings(db, withAgent)))?.message).toContain(
      'At agent: not part of version 1 files',
    );
  });

  it('skips entries of workspaces that do not exist here and names them, applying the rest', async () => {
    const db = await freshDb();
    const file = {
      format: 'i-settings',
      version: 2,
      global: {},
      workspaces: [],
      agent: {
        global: { modules: { compact: { enabled: false } } },
        workspaces: [{ id: 'gone', name: 'Gone', approval: 'yolo' }],
      },
    };
    expect(await importAllSettings(db, JSON.stringify(file))).toMatchObject({
      globalApplied: true,
      applied: [],
      skipped: ['Gone'],
      heldBack: [],
    });
    expect((await readStoredModules(db, null)) as object).toEqual({
      compact: { enabled: false, keep_recent: 4, images: 'keep' },
    });
    expect((await db.getAll('settings')).map((r) => r.scope)).toEqual([AGENT_GLOBAL_SCOPE]);
  });

  it('never exports stored parts that fail their checks, nor a preset that is not an id', async () => {
    const db = await freshDb();
    // Written by hand or an older build: a key inside the config, a bad approval, junk in preset.
    await db.put('settings', {
      scope: AGENT_GLOBAL_SCOPE,
      version: 1,
      values: { model: { config: { ...MODEL, api_key: 'sk-stored-inline' }, preset: 'x' }, modules: { bogus: 1 } },
      updatedAt: 1,
    });
    const w = await createWorkspaceRecord(db, { name: 'W', kind: 'opfs' });
    await db.put('settings', {
      scope: agentWorkspaceScope(w.id),
      version: 1,
      values: { model: { config: MODEL, preset: 'sk-not a preset', secret: 'y' }, approval: 'always', extra: 'z' },
      updatedAt: 1,
    });
    const text = serializeSettings(await exportAllSettings(db));
    expect(text).not.toContain('sk-stored-inline');
    expect(text).not.toContain('sk-not a preset');
    expect(text).not.toContain('"secret"');
    expect(text).not.toContain('always');
    expect(JSON.parse(text).agent).toEqual({
      workspaces: [{ id: w.id, name: 'W', model: { config: MODEL, preset: null } }],
    });
    // And what was exported imports back.
    expect(await importAllSettings(await freshDb(), text)).toMatchObject({ skipped: ['W'] });
  });

  it('is refused by the general import alone rather than half-imported', async () => {
    const db = await freshDb();
    const file = {
      format: 'i-settings',
      version: 2,
      global: { theme: 'dark' },
      workspaces: [],
      agent: { global: { modules: {} } },
    };
    expect((await errorOf(importSettings(db, JSON.stringify(file))))?.message).toContain('At agent: unknown field');
    expect((await readGlobalSettings(db)).theme).toBe('system');
  });
});
