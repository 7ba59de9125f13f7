// The agent's settings in the app: the model config (seed 000 §4 JSON, the same file headless `i` reads, validated
// by web/core/config) globally and optionally per workspace, and the approval mode per workspace. Kept in the
// `settings` object store under their own scopes (`agent:global`, `agent-workspace:<id>`) so the general
// settings' strict schema stays untouched. The API key is never here: `api_key_env` names a secrets-store entry.
import { parseModelConfig, type ModelConfig } from '../config';
import { HarnessError, toErrorData, type ErrorData } from '../errors';
import type { HarnessDb } from '../storage';

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
}

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
}

/** Validates a model config object; throws the config parser's HarnessError (code + path). */
export function checkModelConfig(config: unknown): ModelConfig {
  return parseModelConfig(config);
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
  if (!APPROVAL_MODES.includes(mode)) throw new HarnessError('E_SETTINGS_INVALID', `The approval mode must be one of ${APPROVAL_MODES.join(', ')}.`, { mode });
  const scope = agentWorkspaceScope(workspaceId);
  await writeValues(db, scope, { ...(await readValues(db, scope)), approval: mode });
}

export async function readAgentSettings(db: HarnessDb, workspaceId: string): Promise<AgentSettings> {
  const [global, own] = await Promise.all([readValues(db, AGENT_GLOBAL_SCOPE), readValues(db, agentWorkspaceScope(workspaceId))]);
  const approval = own.approval && APPROVAL_MODES.includes(own.approval) ? own.approval : 'ask';
  const stored = own.model ? { model: own.model, scope: 'workspace' as const } : global.model ? { model: global.model, scope: 'global' as const } : null;
  if (!stored) return { model: null, modelError: null, approval };
  try {
    return { model: { config: checkModelConfig(stored.model.config), preset: stored.model.preset ?? null, scope: stored.scope }, modelError: null, approval };
  } catch (error) {
    return { model: null, modelError: toErrorData(error, 'E_CONFIG_INVALID'), approval };
  }
}
