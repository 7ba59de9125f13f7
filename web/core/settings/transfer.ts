// Export and import of non-secret settings as one JSON document. Import validates the WHOLE file before writing
// anything and then writes in one transaction, so a bad file changes nothing. The secrets store is never read here.
import { HarnessError } from '../errors';
import { nameKeyOf, type HarnessDb } from '../storage';
import { checkSettingsValues, SETTINGS_VERSION, type GlobalSettings, type SettingsIssue, type WorkspaceSettings } from './schema';
import { GLOBAL_SCOPE, readGlobalSettings, readWorkspaceSettings, record, workspaceScope } from './store';

export const SETTINGS_FILE_FORMAT = 'i-settings';
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

export interface SettingsFile {
  format: typeof SETTINGS_FILE_FORMAT;
  version: number;
  exportedAt: string;
  global: Partial<GlobalSettings>;
  workspaces: { id: string; name: string; settings: WorkspaceSettings }[];
}

export interface ImportReport {
  globalApplied: boolean;
  /** Workspaces whose settings were applied (matched by id, else by name). */
  applied: string[];
  /** Names in the file with no matching workspace here. */
  skipped: string[];
}

export async function exportSettings(db: HarnessDb, now: Date = new Date()): Promise<SettingsFile> {
  const workspaces = await db.getAllFromIndex('workspaces', 'by_name_key');
  const out: SettingsFile = {
    format: SETTINGS_FILE_FORMAT,
    version: SETTINGS_VERSION,
    exportedAt: now.toISOString(),
    global: await readGlobalSettings(db),
    workspaces: [],
  };
  for (const w of workspaces) {
    const settings = await readWorkspaceSettings(db, w.id);
    if (Object.keys(settings).length) out.workspaces.push({ id: w.id, name: w.name, settings });
  }
  return out;
}

export function serializeSettings(file: SettingsFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Parses and validates a settings file; throws E_SETTINGS_IMPORT_INVALID listing every problem with its path. */
export function parseSettingsFile(text: string): SettingsFile {
  if (new TextEncoder().encode(text).length > MAX_SETTINGS_FILE_BYTES) {
    throw invalid([{ path: '(file)', problem: `larger than ${MAX_SETTINGS_FILE_BYTES / 1024} KiB; this is not a settings export` }]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw invalid([{ path: '(file)', problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }]);
  }
  const issues: SettingsIssue[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid([{ path: '(file)', problem: 'expected a JSON object' }]);
  const d = doc as Record<string, unknown>;
  for (const key of Object.keys(d)) {
    if (!['format', 'version', 'exportedAt', 'global', 'workspaces'].includes(key)) issues.push({ path: key, problem: 'unknown field' });
  }
  if (d.format !== SETTINGS_FILE_FORMAT) issues.push({ path: 'format', problem: `expected "${SETTINGS_FILE_FORMAT}"` });
  if (typeof d.version !== 'number' || !Number.isInteger(d.version) || d.version < 1) issues.push({ path: 'version', problem: 'expected a positive integer' });
  else if (d.version > SETTINGS_VERSION) issues.push({ path: 'version', problem: `written by a newer version of i (${d.version} > ${SETTINGS_VERSION}); update the app first` });
  if (d.exportedAt !== undefined && typeof d.exportedAt !== 'string') issues.push({ path: 'exportedAt', problem: 'expected a string' });
  if (d.global !== undefined) issues.push(...checkSettingsValues(d.global, 'global', 'global'));
  const workspaces = d.workspaces ?? [];
  if (!Array.isArray(workspaces)) issues.push({ path: 'workspaces', problem: 'expected an array' });
  else {
    workspaces.forEach((w: unknown, i) => {
      const p = `workspaces.${i}`;
      if (typeof w !== 'object' || w === null || Array.isArray(w)) return void issues.push({ path: p, problem: 'expected an object' });
      const e = w as Record<string, unknown>;
      for (const key of Object.keys(e)) if (!['id', 'name', 'settings'].includes(key)) issues.push({ path: `${p}.${key}`, problem: 'unknown field' });
      if (typeof e.id !== 'string') issues.push({ path: `${p}.id`, problem: 'expected a string' });
      if (typeof e.name !== 'string') issues.push({ path: `${p}.name`, problem: 'expected a string' });
      issues.push(...checkSettingsValues(e.settings, 'workspace', `${p}.settings`));
    });
  }
  if (issues.length) throw invalid(issues);
  return {
    format: SETTINGS_FILE_FORMAT,
    version: d.version as number,
    exportedAt: (d.exportedAt as string | undefined) ?? '',
    global: (d.global ?? {}) as Partial<GlobalSettings>,
    workspaces: workspaces as SettingsFile['workspaces'],
  };
}

/** Applies a validated file in one transaction. Workspaces match by id first, then by name. */
export async function importSettings(db: HarnessDb, text: string): Promise<ImportReport> {
  const file = parseSettingsFile(text);
  const report: ImportReport = { globalApplied: false, applied: [], skipped: [] };
  const tx = db.transaction(['settings', 'workspaces'], 'readwrite');
  const settings = tx.objectStore('settings');
  const current = (await settings.get(GLOBAL_SCOPE))?.values ?? {};
  if (Object.keys(file.global).length) {
    await settings.put(record(GLOBAL_SCOPE, { ...current, ...file.global }));
    report.globalApplied = true;
  }
  const registry = tx.objectStore('workspaces');
  for (const entry of file.workspaces) {
    const target = (await registry.get(entry.id)) ?? (await registry.index('by_name_key').get(nameKeyOf(entry.name)));
    if (!target) {
      report.skipped.push(entry.name);
      continue;
    }
    await settings.put(record(workspaceScope(target.id), entry.settings));
    report.applied.push(target.name);
  }
  await tx.done;
  return report;
}

function invalid(issues: SettingsIssue[]): HarnessError {
  const shown = issues.slice(0, 5).map((i) => `At ${i.path}: ${i.problem}.`).join(' ');
  const more = issues.length > 5 ? ` (${issues.length - 5} more)` : '';
  return new HarnessError('E_SETTINGS_IMPORT_INVALID', `This settings file was not imported and nothing changed. ${shown}${more}`, { issues });
}
