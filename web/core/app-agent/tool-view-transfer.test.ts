// Settings export/import carries a workspace's "Tools the agent sees": exported, imported into a fresh database,
// refused with its path when malformed or set globally (a bad file changes nothing). Node + fake-indexeddb.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openHarnessDb } from '../storage';
import { createWorkspaceRecord } from '../workspaces';
import { exportAllSettings, importAllSettings } from './settings-transfer';
import { readToolView, saveToolView } from './tool-view-settings';
import { serializeSettings } from '../settings';

const fresh = () => openHarnessDb(`tool-view-transfer-${Math.random()}`);

describe('tool view in settings export/import', () => {
  it('moves a workspace view to a fresh database and refuses bad or global ones with their paths', async () => {
    const db = await fresh();
    const w = await createWorkspaceRecord(db, { name: 'Project', kind: 'opfs' });
    await saveToolView(db, w.id, { names: ['read'], groups: ['files', 'mcp:gh'] });
    const file = JSON.parse(serializeSettings(await exportAllSettings(db))) as {
      agent: { workspaces: { toolView?: unknown }[] };
    };
    expect(file.agent.workspaces[0]!.toolView).toEqual({ names: ['read'], groups: ['files', 'mcp:gh'] });

    const other = await fresh();
    const target = await createWorkspaceRecord(other, { name: 'Project', kind: 'opfs' });
    await importAllSettings(other, JSON.stringify(file));
    expect(await readToolView(other, target.id)).toEqual({ names: ['read'], groups: ['files', 'mcp:gh'] });

    const bad = structuredClone(file) as { agent: { workspaces: { toolView?: unknown }[]; global?: unknown } };
    bad.agent.workspaces[0]!.toolView = { names: ['read'], groups: ['files', 'files'] };
    const refused = await importAllSettings(other, JSON.stringify(bad)).then(
      () => null,
      (e: unknown) => e as { message: string },
    );
    expect(refused?.message).toContain('agent.workspaces.0.toolView.groups[1]');
    bad.agent.workspaces[0]!.toolView = { names: [], groups: [] };
    bad.agent.global = { toolView: { names: [], groups: [] } };
    const global = await importAllSettings(other, JSON.stringify(bad)).then(
      () => null,
      (e: unknown) => e as { message: string },
    );
    expect(global?.message).toContain('agent.global.toolView');
    expect(await readToolView(other, target.id)).toEqual({ names: ['read'], groups: ['files', 'mcp:gh'] });
  });
});
