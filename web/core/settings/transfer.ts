// Export and import of non-secret settings as one JSON document. Import validates the WHOLE file before writing
// anything and then writes in one transaction, so a bad file changes nothing. The secrets store is never read here.
//
// File versions: 1 = general settings only; 2 adds the optional `agent` part (model config, approval modes,
// Settings → Agent). This folder does not know the agent's settings (web/core/app-agent imports it, not the other
// way round): the agent part is checked and written by a `SettingsFileSection` that app-agent's settings-transfer.ts
// passes in. Without that section a file carrying `agent` is refused, never half-imported.
//
// Changes that loosen a protection or send a stored key somewhere new (import-trust.ts) are written only when the
// caller names them in `confirmed` (ids from `previewSettingsImport`); otherwise the safe part is applied and the
// report's `notice` (E_IMPORT_NEEDS_CONFIRM) says, one sentence each, what was held back. Here: "Allow the agent to
// write inside .git" turned on for a workspace.
import { HarnessError } from '../contracts';
import { nameKeyOf, type HarnessDb, type SettingsRecord, type WorkspaceRecord } from '../storage';
import { checkSettingsValues, type GlobalSettings, type SettingsIssue, type WorkspaceSettings } from './schema';
import { GLOBAL_SCOPE, readGlobalSettings, readWorkspaceSettings, record, workspaceScope } from './store';
import {
  createTrustGate,
  needsConfirmNotice,
  type ImportNotice,
  type TrustChange,
  type TrustGate,
} from './import-trust';

export const SETTINGS_FILE_FORMAT = 'i-settings';
/** Version of the file's shape (not of the stored records: that is SETTINGS_VERSION). Older versions still import. */
export const SETTINGS_FILE_VERSION = 2;
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;
const BASE_FIELDS = ['format', 'version', 'exportedAt', 'global', 'workspaces'];

export interface SettingsFile {
  format: typeof SETTINGS_FILE_FORMAT;
  version: number;
  exportedAt: string;
  global: Partial<GlobalSettings>;
  workspaces: { id: string; name: string; settings: WorkspaceSettings }[];
  /** Version 2+: the agent's non-secret settings; its shape belongs to web/core/app-agent (opaque here). */
  agent?: unknown;
}

/** The settings object store inside the import transaction (only IndexedDB requests may be awaited there). */
export interface SettingsTxStore {
  get(scope: string): Promise<SettingsRecord | undefined>;
  getAll(): Promise<SettingsRecord[]>;
  put(record: SettingsRecord): Promise<unknown>;
}

/** What a section's writer gets besides the store: the trust gate and whether a secret of a name is stored here. */
export interface SectionContext {
  gate: TrustGate;
  secretExists(name: string): Promise<boolean>;
}

/** A top-level part of the file owned by another layer, checked with the rest and written in the same transaction. */
export interface SettingsFileSection {
  field: 'agent';
  /** The first file version that may carry it. */
  since: number;
  /** Every problem of the part, paths starting with `field` (e.g. `agent.global.model.config.base_url`). */
  check(value: unknown): SettingsIssue[];
  /**
   * Writes a checked part. `findWorkspace` matches by id, then by name; applied/skipped names go into `report`.
   * Every trust-widening change goes through `ctx.gate` and is written only when it allows it.
   */
  apply(
    value: unknown,
    store: SettingsTxStore,
    findWorkspace: (id: string, name: string) => Promise<WorkspaceRecord | undefined>,
    report: ImportReport,
    ctx: SectionContext,
  ): Promise<void>;
}

export interface ImportReport {
  globalApplied: boolean;
  /** Workspaces whose settings were applied (matched by id, else by name). */
  applied: string[];
  /** Names in the file with no matching workspace here. */
  skipped: string[];
  /** Trust-widening changes written because the caller confirmed them. */
  confirmed: TrustChange[];
  /** Trust-widening changes not written (the current value was kept). */
  heldBack: TrustChange[];
  /** E_IMPORT_NEEDS_CONFIRM with one sentence per held-back change; null when nothing was held back. */
  notice: ImportNotice | null;
}

export interface ImportOptions {
  /** Ids of the trust-widening changes the person confirmed (from `previewSettingsImport`); others are held back. */
  confirmed?: readonly string[];
}

export async function exportSettings(db: HarnessDb, now: Date = new Date()): Promise<SettingsFile> {
  const workspaces = await db.getAllFromIndex('workspaces', 'by_name_key');
  const out: SettingsFile = {
    format: SETTINGS_FILE_FORMAT,
    version: SETTINGS_FILE_VERSION,
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
export function parseSettingsFile(text: string, sections: readonly SettingsFileSection[] = []): SettingsFile {
  if (new TextEncoder().encode(text).length > MAX_SETTINGS_FILE_BYTES) {
    throw invalid([
      { path: '(file)', problem: `larger than ${MAX_SETTINGS_FILE_BYTES / 1024} KiB; this is not a settings export` },
    ]);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw invalid([
      { path: '(file)', problem: `not valid JSON (${error instanceof Error ? error.message : String(error)})` },
    ]);
  }
  const issues: SettingsIssue[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw invalid([{ path: '(file)', problem: 'expected a JSON object' }]);
  const d = doc as Record<string, unknown>;
  const versionOk = typeof d.version === 'number' && Number.isInteger(d.version) && d.version >= 1;
  for (const key of Object.keys(d)) {
    if (BASE_FIELDS.includes(key)) continue;
    const section = sections.find((s) => s.field === key);
    if (!section) issues.push({ path: key, problem: 'unknown field' });
    else if (versionOk && (d.version as number) < section.since)
      issues.push({
        path: key,
        problem: `not part of version ${String(d.version)} files (it came in version ${section.since})`,
      });
    else issues.push(...section.check(d[key]));
  }
  if (d.format !== SETTINGS_FILE_FORMAT) issues.push({ path: 'format', problem: `expected "${SETTINGS_FILE_FORMAT}"` });
  if (!versionOk) issues.push({ path: 'version', problem: 'expected a positive integer' });
  else if ((d.version as number) > SETTINGS_FILE_VERSION)
    issues.push({
      path: 'version',
      problem: `written by a newer version of i (${String(d.version)} > ${SETTINGS_FILE_VERSION}); update the app first`,
    });
  if (d.exportedAt !== undefined && typeof d.exportedAt !== 'string')
    issues.push({ path: 'exportedAt', problem: 'expected a string' });
  if (d.global !== undefined) issues.push(...checkSettingsValues(d.global, 'global', 'global'));
  const workspaces = d.workspaces ?? [];
  if (!Array.isArray(workspaces)) issues.push({ path: 'workspaces', problem: 'expected an array' });
  else {
    workspaces.forEach((w: unknown, i) => {
      const p = `workspaces.${i}`;
      if (typeof w !== 'object' || w === null || Array.isArray(w))
        return void issues.push({ path: p, problem: 'expected an object' });
      const e = w as Record<string, unknown>;
      for (const key of Object.keys(e))
        if (!['id', 'name', 'settings'].includes(key)) issues.push({ path: `${p}.${key}`, problem: 'unknown field' });
      if (typeof e.id !== 'string') issues.push({ path: `${p}.id`, problem: 'expected a string' });
      if (typeof e.name !== 'string') issues.push({ path: `${p}.name`, problem: 'expected a string' });
      issues.push(...checkSettingsValues(e.settings, 'workspace', `${p}.settings`));
    });
  }
  if (issues.length) throw invalid(issues);
  const file: SettingsFile = {
    format: SETTINGS_FILE_FORMAT,
    version: d.version as number,
    exportedAt: (d.exportedAt as string | undefined) ?? '',
    global: (d.global ?? {}) as Partial<GlobalSettings>,
    workspaces: workspaces as SettingsFile['workspaces'],
  };
  for (const section of sections) if (d[section.field] !== undefined) file[section.field] = d[section.field];
  return file;
}

/**
 * Applies a validated file (with its `sections`) in one transaction. Workspaces match by id first, then by name;
 * entries for workspaces that do not exist here are skipped and named in the report. Trust-widening changes not
 * named in `options.confirmed` are held back and reported (`report.notice`).
 */
export function importSettings(
  db: HarnessDb,
  text: string,
  sections: readonly SettingsFileSection[] = [],
  options: ImportOptions = {},
): Promise<ImportReport> {
  return runImport(db, text, sections, options.confirmed ?? [], false);
}

/**
 * What importing the file would do, without writing anything: the same pass as the import inside a transaction
 * that is then abandoned. `heldBack` lists every trust-widening change (none is confirmed), with the ids to confirm.
 */
export function previewSettingsImport(
  db: HarnessDb,
  text: string,
  sections: readonly SettingsFileSection[] = [],
): Promise<ImportReport> {
  return runImport(db, text, sections, [], true);
}

async function runImport(
  db: HarnessDb,
  text: string,
  sections: readonly SettingsFileSection[],
  confirmed: readonly string[],
  dryRun: boolean,
): Promise<ImportReport> {
  const file = parseSettingsFile(text, sections);
  const report: ImportReport = {
    globalApplied: false,
    applied: [],
    skipped: [],
    confirmed: [],
    heldBack: [],
    notice: null,
  };
  const gate = createTrustGate(confirmed, report);
  const tx = db.transaction(['settings', 'workspaces', 'secrets'], 'readwrite');
  const settings = tx.objectStore('settings');
  const secrets = tx.objectStore('secrets');
  const ctx: SectionContext = { gate, secretExists: async (name) => (await secrets.get(name)) !== undefined };
  const current = (await settings.get(GLOBAL_SCOPE))?.values ?? {};
  if (Object.keys(file.global).length) {
    await settings.put(record(GLOBAL_SCOPE, { ...current, ...file.global }));
    report.globalApplied = true;
  }
  const registry = tx.objectStore('workspaces');
  const findWorkspace = async (id: string, name: string) =>
    (await registry.get(id)) ?? (await registry.index('by_name_key').get(nameKeyOf(name)));
  for (const entry of file.workspaces) {
    const target = await findWorkspace(entry.id, entry.name);
    if (!target) {
      report.skipped.push(entry.name);
      continue;
    }
    const scope = workspaceScope(target.id);
    const values: WorkspaceSettings = { ...entry.settings };
    const had = ((await settings.get(scope))?.values as WorkspaceSettings | undefined)?.allowGitWrites;
    if (values.allowGitWrites === true && had !== true && !gate.allows(gitWritesChange(target))) {
      if (had === undefined) delete values.allowGitWrites;
      else values.allowGitWrites = had;
    }
    await settings.put(record(scope, values));
    report.applied.push(target.name);
  }
  try {
    for (const section of sections) {
      if (file[section.field] !== undefined)
        await section.apply(file[section.field], settings, findWorkspace, report, ctx);
    }
  } catch (error) {
    tx.abort(); // a section that fails while writing leaves nothing behind either
    await tx.done.catch(() => undefined);
    throw error;
  }
  if (dryRun) {
    tx.abort();
    await tx.done.catch(() => undefined);
  } else await tx.done;
  report.notice = needsConfirmNotice(report.heldBack);
  return report;
}

function gitWritesChange(target: WorkspaceRecord): TrustChange {
  return {
    id: `git_writes:${target.id}`,
    kind: 'git_writes',
    workspace: target.name,
    message:
      'turns on "Allow the agent to write inside .git", so the agent and plugins could change the repository\'s history, hooks and config.',
    data: {},
  };
}

function invalid(issues: SettingsIssue[]): HarnessError {
  const shown = issues
    .slice(0, 5)
    .map((i) => `At ${i.path}: ${i.problem}.`)
    .join(' ');
  const more = issues.length > 5 ? ` (${issues.length - 5} more)` : '';
  return new HarnessError(
    'E_SETTINGS_IMPORT_INVALID',
    `This settings file was not imported and nothing changed. ${shown}${more}`,
    { issues },
  );
}
