// Reading and writing settings records. A stored record that fails validation (written by a buggy build or edited
// by hand) never breaks the app: the bad fields fall back to their defaults and the rest is kept.
import { HarnessError } from '../contracts';
import type { HarnessDb, SettingsRecord } from '../storage';
import {
  checkSettingsValues,
  DEFAULT_GLOBAL_SETTINGS,
  SETTINGS_VERSION,
  type GlobalSettings,
  type WorkspaceSettings,
} from './schema';

export const GLOBAL_SCOPE = 'global';
export const workspaceScope = (id: string) => `workspace:${id}`;

function keepValid(values: Record<string, unknown>, scope: 'global' | 'workspace'): Record<string, unknown> {
  const bad = new Set(checkSettingsValues(values, scope, 'v').map((i) => i.path.split('.')[1]));
  return Object.fromEntries(Object.entries(values).filter(([k]) => !bad.has(k)));
}

export async function readGlobalSettings(db: HarnessDb): Promise<GlobalSettings> {
  const record = await db.get('settings', GLOBAL_SCOPE);
  return { ...DEFAULT_GLOBAL_SETTINGS, ...keepValid(record?.values ?? {}, 'global') } as GlobalSettings;
}

export async function readWorkspaceSettings(db: HarnessDb, workspaceId: string): Promise<WorkspaceSettings> {
  const record = await db.get('settings', workspaceScope(workspaceId));
  return keepValid(record?.values ?? {}, 'workspace') as WorkspaceSettings;
}

export async function updateGlobalSettings(db: HarnessDb, patch: Partial<GlobalSettings>): Promise<GlobalSettings> {
  assertValid(patch, 'global');
  const next = { ...(await readGlobalSettings(db)), ...patch };
  await db.put('settings', record(GLOBAL_SCOPE, next));
  return next;
}

/** `undefined` in the patch removes an override (the workspace follows the global value again). */
export async function updateWorkspaceSettings(
  db: HarnessDb,
  workspaceId: string,
  patch: WorkspaceSettings,
): Promise<WorkspaceSettings> {
  const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  assertValid(defined, 'workspace');
  const next: Record<string, unknown> = { ...(await readWorkspaceSettings(db, workspaceId)), ...defined };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
  await db.put('settings', record(workspaceScope(workspaceId), next));
  return next as WorkspaceSettings;
}

export function record(scope: string, values: object): SettingsRecord {
  return { scope, version: SETTINGS_VERSION, values: { ...values }, updatedAt: Date.now() };
}

function assertValid(values: object, scope: 'global' | 'workspace'): void {
  const issues = checkSettingsValues(values, scope, scope);
  if (issues.length) {
    const first = issues[0]!;
    throw new HarnessError(
      'E_SETTINGS_INVALID',
      `At ${first.path}: ${first.problem}. Change the value and try again.`,
      { issues },
    );
  }
}
