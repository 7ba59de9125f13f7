// The agent's settings in the app: the model config (seed 000 §4 JSON, the same file headless `i` reads, validated
// by web/core/config) globally and optionally per workspace, and the approval mode per workspace. Kept in the
// `settings` object store under their own scopes (`agent:global`, `agent-workspace:<id>`) so the general
// settings' strict schema stays untouched. The API key is never here: `api_key_env` names a secrets-store entry.
import { parseModelConfig, type ModelConfig } from '../config';
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import {
  DEFAULT_CACHE_CONFIG,
  DEFAULT_COMPACT_CONFIG,
  DEFAULT_SELECTION,
  parseCacheConfig,
  parseCompactConfig,
  validateProfileSelection,
  validateSystemPrompt,
  type CacheConfig,
  type CompactConfig,
  type ProfileSelection,
} from '../modules';
import type { HarnessDb } from '../storage';
import { parseRules, type ApprovalRule } from '../approval';
import {
  checkParityModules,
  DEFAULT_PARITY,
  PARITY_KEYS,
  storedParityOf,
  type ParityModules,
  type StoredParity,
} from './agent-parity-settings';

export const AGENT_GLOBAL_SCOPE = 'agent:global';
// Deleting a workspace deletes this scope: it is listed in WORKSPACE_SETTINGS_SCOPES (web/core/workspaces).
export const agentWorkspaceScope = (workspaceId: string) => `agent-workspace:${workspaceId}`;
export const AGENT_SETTINGS_VERSION = 1;

/** 'yolo' runs every tool that is not in deny_tools without asking (seed 000 §5 `--yolo`). */
export type ApprovalMode = 'ask' | 'auto' | 'yolo';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'auto', 'yolo'];

export interface StoredModel {
  /** The seed 000 §4 model config object, exactly as the person saved or imported it. */
  config: Record<string, unknown>;
  /** The preset it started from, for the form (informational). */
  preset: string | null;
}

interface AgentValues {
  model?: StoredModel;
  approval?: ApprovalMode;
  /** Approval rules of this scope (web/core/approval rules.ts), validated on save and on every read. */
  rules?: unknown;
  /** Settings → Agent, stored as `StoredModules` (validated on save and again on every read). */
  modules?: unknown;
}

/**
 * Settings → Agent as stored: the profile selection (seed 000 §1), compact.json and cache.json fields (§4, §7, §8;
 * compaction's `prompt` names a file, which the app has not, so it is refused) and the replacement system prompt.
 * Absent parts are the defaults. A workspace's own `modules` replaces the global one as a whole.
 */
export interface StoredModules extends StoredParity {
  selection?: ProfileSelection;
  compact?: Omit<CompactConfig, 'prompt'>;
  cache?: CacheConfig;
  /** 1–32000 characters, `{{workspace}}` = the folder's name; absent = the built-in prompt. */
  system_prompt?: string;
}

/** What a turn runs with, after validation (deny_tools, compaction prompt, web_search: agent-parity-settings.ts). */
export interface AgentModules extends ParityModules {
  selection: ProfileSelection;
  compact: CompactConfig;
  cache: CacheConfig;
  systemPrompt: string | null;
}

export const DEFAULT_AGENT_MODULES: AgentModules = {
  selection: DEFAULT_SELECTION,
  compact: DEFAULT_COMPACT_CONFIG,
  cache: DEFAULT_CACHE_CONFIG,
  systemPrompt: null,
  ...DEFAULT_PARITY,
};
const MODULES_KEYS: readonly string[] = ['selection', 'compact', 'cache', 'system_prompt', ...PARITY_KEYS];

export interface EffectiveModel {
  config: ModelConfig;
  preset: string | null;
  /** Where it came from: the workspace's own model or the global one. */
  scope: 'workspace' | 'global';
}

export interface AgentSettings {
  /** Null when no model is configured yet. */
  model: EffectiveModel | null;
  /** The stored model could not be read (edited by hand, older build): the reason; the turn refuses to start. */
  modelError: ErrorData | null;
  approval: ApprovalMode;
  /** The profile, compaction, cache and system prompt settings (the defaults when none are stored). */
  modules: AgentModules;
  /** Where `modules` came from. */
  modulesScope: 'workspace' | 'global' | 'default';
  /** The stored Settings → Agent could not be read: the reason; the turn refuses to start (nothing is overwritten). */
  modulesError: ErrorData | null;
  /** The approval rules of the workspace and the global ones (Settings → Approval rules; cards' "Always allow …"). */
  rules: { workspace: ApprovalRule[]; global: ApprovalRule[] };
  /** Stored rules that no longer pass their check: the reason; the turn refuses to start (a lost deny must not go unnoticed). */
  rulesError: ErrorData | null;
}

/** Validates a model config object; throws the config parser's HarnessError (code + path). */
export function checkModelConfig(config: unknown): ModelConfig {
  return parseModelConfig(config);
}

/**
 * Strict validation of Settings → Agent with the modules' own parsers: unknown keys are refused with their path
 * (`E_AGENT_MODULES_INVALID`), each part throws its parser's code (`E_PROFILE_INVALID`, `E_COMPACT_CONFIG`,
 * `E_CACHE_CONFIG`, `E_PROMPT_EMPTY`, `E_PROMPT_TOO_LONG`, `E_PROMPT_INVALID`).
 */
export function checkAgentModules(value: unknown): AgentModules {
  const at = 'agent';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessError('E_AGENT_MODULES_INVALID', `At ${at}: expected an object with ${MODULES_KEYS.join(', ')}.`, {
      at,
    });
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!MODULES_KEYS.includes(key))
      throw new HarnessError(
        'E_AGENT_MODULES_INVALID',
        `At ${at}.${key}: unknown key; allowed: ${MODULES_KEYS.join(', ')}.`,
        { at: `${at}.${key}` },
      );
  }
  const compactRaw = v.compact as Record<string, unknown> | undefined;
  if (compactRaw && typeof compactRaw === 'object' && 'prompt' in compactRaw) {
    throw new HarnessError(
      'E_COMPACT_CONFIG',
      `At ${at}.compact.prompt: the app has no prompt files; remove "prompt" to use the built-in compaction prompt.`,
      { at: `${at}.compact.prompt` },
    );
  }
  return {
    selection: v.selection === undefined ? DEFAULT_SELECTION : validateProfileSelection(v.selection, `${at}.selection`),
    compact: parseCompactConfig(v.compact, `${at}.compact`),
    cache: parseCacheConfig(v.cache, `${at}.cache`),
    systemPrompt:
      v.system_prompt === undefined ? null : validateSystemPrompt(v.system_prompt, 'The replacement system prompt'),
    ...checkParityModules(v, at),
  };
}

/** The canonical stored form of checked settings (defaults left out, so a later default change reaches them). */
export function storedModulesOf(m: AgentModules): StoredModules {
  const out: StoredModules = {};
  if (m.selection.profile !== DEFAULT_SELECTION.profile || m.selection.disabled.length)
    out.selection = { profile: m.selection.profile, disabled: [...m.selection.disabled] };
  const { prompt: _prompt, ...compact } = m.compact;
  if (JSON.stringify(compact) !== JSON.stringify(DEFAULT_COMPACT_CONFIG)) out.compact = compact;
  if (JSON.stringify(m.cache) !== JSON.stringify(DEFAULT_CACHE_CONFIG)) out.cache = { ...m.cache };
  if (m.systemPrompt !== null) out.system_prompt = m.systemPrompt;
  return { ...out, ...storedParityOf(m) };
}

async function readValues(db: HarnessDb, scope: string): Promise<AgentValues> {
  const record = await db.get('settings', scope);
  const values = (record?.values ?? {}) as AgentValues;
  return typeof values === 'object' && values !== null ? values : {};
}

async function writeValues(db: HarnessDb, scope: string, values: AgentValues): Promise<void> {
  await db.put('settings', { scope, version: AGENT_SETTINGS_VERSION, values: { ...values }, updatedAt: Date.now() });
}

export async function readStoredModel(db: HarnessDb, workspaceId: string | null): Promise<StoredModel | null> {
  return (await readValues(db, workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE)).model ?? null;
}

/** Saves (validated) or removes (null) the model config of a scope; a workspace without one uses the global. */
export async function saveModel(db: HarnessDb, workspaceId: string | null, model: StoredModel | null): Promise<void> {
  if (model) checkModelConfig(model.config);
  const scope = workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE;
  const values = await readValues(db, scope);
  if (model) values.model = { config: model.config, preset: model.preset };
  else delete values.model;
  await writeValues(db, scope, values);
}

export async function saveApprovalMode(db: HarnessDb, workspaceId: string, mode: ApprovalMode): Promise<void> {
  if (!APPROVAL_MODES.includes(mode))
    throw new HarnessError('E_SETTINGS_INVALID', `The approval mode must be one of ${APPROVAL_MODES.join(', ')}.`, {
      mode,
    });
  const scope = agentWorkspaceScope(workspaceId);
  await writeValues(db, scope, { ...(await readValues(db, scope)), approval: mode });
}

export async function readAgentSettings(db: HarnessDb, workspaceId: string): Promise<AgentSettings> {
  const [global, own] = await Promise.all([
    readValues(db, AGENT_GLOBAL_SCOPE),
    readValues(db, agentWorkspaceScope(workspaceId)),
  ]);
  const approval = own.approval && APPROVAL_MODES.includes(own.approval) ? own.approval : 'ask';
  const modules = { ...effectiveModules(global, own), ...storedRules(global, own) };
  const stored = own.model
    ? { model: own.model, scope: 'workspace' as const }
    : global.model
      ? { model: global.model, scope: 'global' as const }
      : null;
  if (!stored) return { model: null, modelError: null, approval, ...modules };
  try {
    return {
      model: {
        config: checkModelConfig(stored.model.config),
        preset: stored.model.preset ?? null,
        scope: stored.scope,
      },
      modelError: null,
      approval,
      ...modules,
    };
  } catch (error) {
    return { model: null, modelError: toErrorData(error, 'E_CONFIG_INVALID'), approval, ...modules };
  }
}

function storedRules(global: AgentValues, own: AgentValues): Pick<AgentSettings, 'rules' | 'rulesError'> {
  try {
    return {
      rules: {
        workspace: parseRules(own.rules ?? [], 'workspace rules'),
        global: parseRules(global.rules ?? [], 'global rules'),
      },
      rulesError: null,
    };
  } catch (error) {
    return { rules: { workspace: [], global: [] }, rulesError: toErrorData(error, 'E_APPROVAL_RULES_INVALID') };
  }
}

/** The approval rules stored in exactly this scope (a damaged list throws E_APPROVAL_RULES_INVALID). */
export async function readApprovalRules(db: HarnessDb, workspaceId: string | null): Promise<ApprovalRule[]> {
  return parseRules(
    (await readValues(db, workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE)).rules ?? [],
    workspaceId ? 'workspace rules' : 'global rules',
  );
}

/**
 * The approval rules stored in exactly this scope as they are, unchecked (Settings shows a list that no longer passes
 * the check — a rule written before a check was added — row by row beside its error, so the person can fix it).
 */
export async function readStoredApprovalRules(db: HarnessDb, workspaceId: string | null): Promise<unknown> {
  return (await readValues(db, workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE)).rules ?? [];
}

/** Replaces the approval rules of a scope (validated whole; nothing is written when one is bad). */
export async function saveApprovalRules(
  db: HarnessDb,
  workspaceId: string | null,
  rules: readonly ApprovalRule[],
): Promise<ApprovalRule[]> {
  const checked = parseRules(rules, workspaceId ? 'workspace rules' : 'global rules');
  const scope = workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE;
  const values = await readValues(db, scope);
  if (checked.length) values.rules = checked;
  else delete values.rules;
  await writeValues(db, scope, values);
  return checked;
}

/** Adds one rule to a scope (an approval card's "Always allow …"), unless the same rule is already there. */
export async function addApprovalRule(
  db: HarnessDb,
  workspaceId: string | null,
  rule: ApprovalRule,
): Promise<ApprovalRule[]> {
  const scope = workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE;
  const current = parseRules((await readValues(db, scope)).rules ?? [], 'stored rules');
  const same = (r: ApprovalRule) => r.decision === rule.decision && r.tool === rule.tool && r.path === rule.path;
  return current.some(same) ? current : saveApprovalRules(db, workspaceId, [...current, rule]);
}

/** The Settings → Agent object stored in exactly this scope (unchecked: the form shows a bad one's error), or null. */
export async function readStoredModules(db: HarnessDb, workspaceId: string | null): Promise<unknown> {
  return (await readValues(db, workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE)).modules ?? null;
}

/**
 * Saves (validated; nothing is written when invalid) or removes (null) Settings → Agent of a scope. A workspace
 * without its own uses the global one. Returns what a turn will run with.
 */
export async function saveAgentModules(
  db: HarnessDb,
  workspaceId: string | null,
  modules: StoredModules | null,
): Promise<AgentModules> {
  const checked = modules ? checkAgentModules(modules) : DEFAULT_AGENT_MODULES;
  const scope = workspaceId ? agentWorkspaceScope(workspaceId) : AGENT_GLOBAL_SCOPE;
  const values = await readValues(db, scope);
  if (modules) values.modules = storedModulesOf(checked);
  else delete values.modules;
  await writeValues(db, scope, values);
  return checked;
}

function effectiveModules(
  global: AgentValues,
  own: AgentValues,
): Pick<AgentSettings, 'modules' | 'modulesScope' | 'modulesError'> {
  const modulesScope = own.modules !== undefined ? 'workspace' : global.modules !== undefined ? 'global' : 'default';
  if (modulesScope === 'default') return { modules: DEFAULT_AGENT_MODULES, modulesScope, modulesError: null };
  try {
    return {
      modules: checkAgentModules(modulesScope === 'workspace' ? own.modules : global.modules),
      modulesScope,
      modulesError: null,
    };
  } catch (error) {
    return {
      modules: DEFAULT_AGENT_MODULES,
      modulesScope,
      modulesError: toErrorData(error, 'E_AGENT_MODULES_INVALID'),
    };
  }
}
