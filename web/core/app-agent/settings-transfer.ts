// Settings → Import / Export including the agent's settings. web/core/settings owns the file and its general
// settings but does not know the agent (this folder imports it, not the other way round), so the `agent` part of
// the file (version 2+) is composed here and handed to it as a section: checked with the agent's own checkers
// together with the rest of the file before anything is written, then written in the same transaction.
//
// The part, per scope: `model` ({config, preset}: the seed 000 §4 config names its key only by `api_key_env`, and
// the config checker refuses key-like fields, credentials in extra_body and user:password in base_url), `approval`
// (per workspace only), `modules` (Settings → Agent), `rules` and `toolView` (per workspace only: Tools the agent
// sees). Secrets are never read here.
// Import merges per part: a part the file has replaces this scope's part, a part it lacks is left as it is.
// Entries of workspaces that do not exist here (matched by id, then by name) are skipped and named in the report:
// a new workspace gets a new id, so keeping them would keep data nothing can reach.
// Changes that send a stored key somewhere new or loosen a protection (settings-import-trust.ts) are written only
// when confirmed by id (`importAllSettings(db, text, {confirmed})`, ids from `previewAllSettingsImport`); otherwise
// the rest is applied and the report names what was held back (E_IMPORT_NEEDS_CONFIRM).
import type { HarnessDb, SettingsRecord } from '../storage';
import {
  exportSettings,
  importSettings,
  previewSettingsImport,
  type ImportOptions,
  type ImportReport,
  type SettingsFile,
  type SettingsFileSection,
  type SettingsIssue,
} from '../settings';
import {
  AGENT_GLOBAL_SCOPE,
  AGENT_SETTINGS_VERSION,
  APPROVAL_MODES,
  agentWorkspaceScope,
  checkAgentModules,
  checkModelConfig,
  storedModulesOf,
  type ApprovalMode,
  type StoredModel,
  type StoredModules,
} from './agent-settings';
import { checkRules, parseRules, type ApprovalRule } from '../approval';
import { toErrorData } from '../contracts';
import { parseToolViewConfig, type ToolViewConfig } from '../tool-views';
import { gateScopeParts, keyOriginsOf } from './settings-import-trust';

/** One scope's agent settings in the file. */
export interface AgentScopeExport {
  model?: StoredModel;
  /** Workspace entries only: the global scope has no approval mode. */
  approval?: ApprovalMode;
  modules?: StoredModules;
  /** Approval rules of the scope (workspace or global). */
  rules?: ApprovalRule[];
  /** Workspace entries only: Settings → Agent → Tools the agent sees (web/core/tool-views). */
  toolView?: ToolViewConfig;
}

export interface AgentSettingsExport {
  global?: AgentScopeExport;
  workspaces: ({ id: string; name: string } & AgentScopeExport)[];
}

const PRESET_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SCOPE_PARTS = ['model', 'approval', 'modules', 'rules', 'toolView'];
/** Parts a workspace has and the global scope has not. */
const WORKSPACE_ONLY = ['approval', 'toolView'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The exportable form of one stored scope: only parts that pass their checks, rebuilt field by field. */
function exportScope(values: unknown, withApproval: boolean): AgentScopeExport {
  const out: AgentScopeExport = {};
  if (!isObj(values)) return out;
  const model = values.model;
  if (isObj(model)) {
    try {
      checkModelConfig(model.config);
      // A deep copy of the config exactly as saved (it passed the strict checker, so it holds only allowed fields).
      const config = JSON.parse(JSON.stringify(model.config)) as Obj;
      out.model = {
        config,
        preset: typeof model.preset === 'string' && PRESET_RE.test(model.preset) ? model.preset : null,
      };
    } catch {
      // A stored model that no longer passes (shown as an error in Settings → Model) is not exported.
    }
  }
  if (
    withApproval &&
    typeof values.approval === 'string' &&
    (APPROVAL_MODES as readonly string[]).includes(values.approval)
  )
    out.approval = values.approval as ApprovalMode;
  if (values.modules !== undefined) {
    try {
      out.modules = storedModulesOf(checkAgentModules(values.modules));
    } catch {
      // Bad stored Settings → Agent (shown as an error in that tab) is not exported.
    }
  }
  if (values.rules !== undefined) {
    try {
      const rules = parseRules(values.rules, 'rules');
      if (rules.length) out.rules = rules;
    } catch {
      // Bad stored rules (the turn refuses to start until they are fixed) are not exported.
    }
  }
  if (withApproval && values.toolView !== undefined) {
    try {
      out.toolView = parseToolViewConfig(values.toolView, 'toolView');
    } catch {
      // A damaged stored view (named in Settings → Agent; turns stop until it is fixed) is not exported.
    }
  }
  return out;
}

export async function exportAgentSettings(db: HarnessDb): Promise<AgentSettingsExport> {
  const out: AgentSettingsExport = { workspaces: [] };
  const global = exportScope((await db.get('settings', AGENT_GLOBAL_SCOPE))?.values, false);
  if (Object.keys(global).length) out.global = global;
  for (const w of await db.getAllFromIndex('workspaces', 'by_name_key')) {
    const own = exportScope((await db.get('settings', agentWorkspaceScope(w.id)))?.values, true);
    if (Object.keys(own).length) out.workspaces.push({ id: w.id, name: w.name, ...own });
  }
  return out;
}

/** The whole settings file: the general settings (web/core/settings) plus the agent's part. */
export async function exportAllSettings(db: HarnessDb, now: Date = new Date()): Promise<SettingsFile> {
  const file = await exportSettings(db, now);
  const agent = await exportAgentSettings(db);
  if (agent.global || agent.workspaces.length) file.agent = agent;
  return file;
}

/** `At x: problem` → {path: base.x, problem}; a message without a path is reported at `fallback`. */
function issueOf(error: unknown, base: string, fallback: string): SettingsIssue {
  const message = error instanceof Error ? error.message : String(error);
  const m = /^At ([^:]+): ([\s\S]*)$/.exec(message);
  if (!m) return { path: fallback, problem: message.replace(/\.$/, '') };
  const at = m[1]!;
  return { path: at === '(root)' ? base : `${base}.${at}`, problem: m[2]!.replace(/\.$/, '') };
}

function checkScope(value: unknown, path: string, workspace: boolean): SettingsIssue[] {
  if (!isObj(value)) return [{ path, problem: 'expected an object' }];
  const issues: SettingsIssue[] = [];
  const allowed = workspace ? ['id', 'name', ...SCOPE_PARTS] : SCOPE_PARTS.filter((k) => !WORKSPACE_ONLY.includes(k));
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    issues.push({
      path: `${path}.${key}`,
      problem:
        key === 'approval'
          ? 'the approval mode is set per workspace, not globally'
          : key === 'toolView'
            ? 'the tools the agent sees are set per workspace, not globally'
            : `unknown field; allowed: ${allowed.join(', ')}`,
    });
  }
  if (workspace && value.toolView !== undefined) {
    try {
      parseToolViewConfig(value.toolView, `${path}.toolView`);
    } catch (error) {
      const e = toErrorData(error);
      issues.push({
        path: typeof e.data?.path === 'string' ? e.data.path : `${path}.toolView`,
        problem: e.message.replace(/^At [^:]+: /, '').replace(/\.$/, ''),
      });
    }
  }
  if (workspace) {
    if (typeof value.id !== 'string') issues.push({ path: `${path}.id`, problem: 'expected a string' });
    if (typeof value.name !== 'string') issues.push({ path: `${path}.name`, problem: 'expected a string' });
  }
  if (value.model !== undefined) {
    const model = value.model;
    const at = `${path}.model`;
    if (!isObj(model)) issues.push({ path: at, problem: 'expected an object {"config": {...}, "preset": null}' });
    else {
      for (const key of Object.keys(model))
        if (key !== 'config' && key !== 'preset')
          issues.push({ path: `${at}.${key}`, problem: 'unknown field; allowed: config, preset' });
      try {
        checkModelConfig(model.config);
      } catch (error) {
        issues.push(issueOf(error, `${at}.config`, `${at}.config`));
      }
      if (
        model.preset !== undefined &&
        model.preset !== null &&
        !(typeof model.preset === 'string' && PRESET_RE.test(model.preset))
      ) {
        issues.push({ path: `${at}.preset`, problem: 'expected a preset id such as "openai", or null' });
      }
    }
  }
  if (
    value.approval !== undefined &&
    workspace &&
    !(typeof value.approval === 'string' && (APPROVAL_MODES as readonly string[]).includes(value.approval))
  ) {
    issues.push({
      path: `${path}.approval`,
      problem: `expected one of ${APPROVAL_MODES.map((m) => JSON.stringify(m)).join(', ')}`,
    });
  }
  if (value.modules !== undefined) {
    try {
      checkAgentModules(value.modules);
    } catch (error) {
      // The modules' parsers report `At agent.<field>: …`; prompt errors carry no path.
      const issue = issueOf(error, `${path}.modules`, `${path}.modules.system_prompt`);
      issues.push({ ...issue, path: issue.path.replace(`${path}.modules.agent`, `${path}.modules`) });
    }
  }
  if (value.rules !== undefined)
    for (const problem of checkRules(value.rules, `${path}.rules`))
      issues.push({ path: problem.split(':')[0]!, problem: problem.slice(problem.indexOf(':') + 2) });
  return issues;
}

function checkAgentPart(value: unknown): SettingsIssue[] {
  if (!isObj(value)) return [{ path: 'agent', problem: 'expected an object {"global": {...}, "workspaces": [...]}' }];
  const issues: SettingsIssue[] = [];
  for (const key of Object.keys(value))
    if (key !== 'global' && key !== 'workspaces')
      issues.push({ path: `agent.${key}`, problem: 'unknown field; allowed: global, workspaces' });
  if (value.global !== undefined) issues.push(...checkScope(value.global, 'agent.global', false));
  if (value.workspaces !== undefined) {
    if (!Array.isArray(value.workspaces)) issues.push({ path: 'agent.workspaces', problem: 'expected an array' });
    else value.workspaces.forEach((w: unknown, i) => issues.push(...checkScope(w, `agent.workspaces.${i}`, true)));
  }
  return issues;
}

/** The checked parts of a scope as they are stored (modules in their canonical form). */
function storedParts(value: Obj): Obj {
  const parts: Obj = {};
  if (isObj(value.model))
    parts.model = { config: value.model.config, preset: (value.model.preset as string | null | undefined) ?? null };
  if (value.approval !== undefined) parts.approval = value.approval;
  if (value.modules !== undefined) parts.modules = storedModulesOf(checkAgentModules(value.modules));
  if (value.rules !== undefined) parts.rules = parseRules(value.rules, 'rules');
  if (value.toolView !== undefined) parts.toolView = parseToolViewConfig(value.toolView, 'toolView');
  return parts;
}

function agentRecord(scope: string, values: Obj): SettingsRecord {
  return { scope, version: AGENT_SETTINGS_VERSION, values, updatedAt: Date.now() };
}

/** The `agent` part of the settings file for web/core/settings' import. */
export const AGENT_SETTINGS_SECTION: SettingsFileSection = {
  field: 'agent',
  since: 2,
  check: checkAgentPart,
  async apply(value, store, findWorkspace, report: ImportReport, ctx) {
    const part = value as Obj;
    // Read before anything is written: where keys go now, and the global scope the workspaces follow.
    const keyOrigins = keyOriginsOf(await store.getAll());
    const globalNow = (await store.get(AGENT_GLOBAL_SCOPE))?.values ?? {};
    const nameOf = async (id: string) => (await findWorkspace(id, ''))?.name ?? id;
    if (isObj(part.global)) {
      const parts = await gateScopeParts(storedParts(part.global), {
        scopeKey: 'global',
        workspace: null,
        current: globalNow,
        global: null,
        keyOrigins,
        ctx,
        nameOf,
      });
      if (Object.keys(parts).length) {
        await store.put(agentRecord(AGENT_GLOBAL_SCOPE, { ...globalNow, ...parts }));
        report.globalApplied = true;
      }
    }
    for (const entry of (part.workspaces ?? []) as Obj[]) {
      const target = await findWorkspace(entry.id as string, entry.name as string);
      if (!target) {
        if (!report.skipped.includes(entry.name as string)) report.skipped.push(entry.name as string);
        continue;
      }
      const scope = agentWorkspaceScope(target.id);
      const current = (await store.get(scope))?.values ?? {};
      const parts = await gateScopeParts(storedParts(entry), {
        scopeKey: target.id,
        workspace: target.name,
        current,
        global: globalNow,
        keyOrigins,
        ctx,
        nameOf,
      });
      await store.put(agentRecord(scope, { ...current, ...parts }));
      if (!report.applied.includes(target.name)) report.applied.push(target.name);
    }
  },
};

/**
 * Imports a settings file of any supported version, the agent's part included; a bad file changes nothing.
 * Trust-widening changes are written only when `options.confirmed` names them; the report says what was held back.
 */
export function importAllSettings(db: HarnessDb, text: string, options: ImportOptions = {}): Promise<ImportReport> {
  return importSettings(db, text, [AGENT_SETTINGS_SECTION], options);
}

/** What importing the file would do, writing nothing: `heldBack` lists every change that needs the person's confirmation. */
export function previewAllSettingsImport(db: HarnessDb, text: string): Promise<ImportReport> {
  return previewSettingsImport(db, text, [AGENT_SETTINGS_SECTION]);
}
