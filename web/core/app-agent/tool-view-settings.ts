// Settings → Agent → "Tools the agent sees", per workspace (seed 002 tool view, issue 17). Stored as `toolView`
// beside the workspace's other agent values (scope `agent-workspace:<id>`, deleted with the workspace), validated
// by the same parser as the model config file's `tool_view`. Absent: the model sees every tool (within limits).
import { HarnessError, toErrorData } from '../errors';
import type { HarnessDb } from '../storage';
import { groupedSelector, parseToolViewConfig, type ToolSelector, type ToolViewConfig } from '../tool-views';
import { AGENT_SETTINGS_VERSION, agentWorkspaceScope } from './agent-settings';

async function values(db: HarnessDb, workspaceId: string): Promise<Record<string, unknown>> {
  const v = (await db.get('settings', agentWorkspaceScope(workspaceId)))?.values;
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The stored view of a workspace, or null (all tools). A damaged one throws its E_TOOL_VIEW_* error. */
export async function readToolView(db: HarnessDb, workspaceId: string): Promise<ToolViewConfig | null> {
  const stored = (await values(db, workspaceId)).toolView;
  return stored === undefined ? null : parseToolViewConfig(stored, 'tool view');
}

/** Saves (validated; nothing written when invalid) or removes (null) the view of a workspace. */
export async function saveToolView(db: HarnessDb, workspaceId: string, view: ToolViewConfig | null): Promise<ToolViewConfig | null> {
  const checked = view ? parseToolViewConfig(view, 'tool view') : null;
  const current = { ...(await values(db, workspaceId)) };
  if (checked) current.toolView = checked;
  else delete current.toolView;
  await db.put('settings', { scope: agentWorkspaceScope(workspaceId), version: AGENT_SETTINGS_VERSION, values: current, updatedAt: Date.now() });
  return checked;
}

/**
 * What a turn passes as `TurnDeps.toolView`: nothing without a stored view; a damaged stored view becomes a
 * selector that refuses with its reason, so the turn stops before any request instead of silently showing all.
 */
export async function toolViewDeps(db: HarnessDb, workspaceId: string): Promise<{ toolView?: ToolSelector }> {
  let view: ToolViewConfig | null;
  try {
    view = await readToolView(db, workspaceId);
  } catch (error) {
    const refused = toErrorData(error, 'E_TOOL_VIEW_CONFIG_INVALID');
    return {
      toolView: () => {
        throw new HarnessError(refused.code, `${refused.message} Fix or reset "Tools the agent sees" in Settings → Agent.`, refused.data);
      },
    };
  }
  return view ? { toolView: groupedSelector(view) } : {};
}
