// Settings → Agent → "Tools the agent sees", per workspace (seed 002 tool view, issue 17). Stored as `toolView`
// beside the workspace's other agent values (scope `agent-workspace:<id>`, deleted with the workspace), validated
// by the same parser as the model config file's `tool_view`. Absent: the model sees every tool (within limits).
import { SESSION_RESULT_STORE_LIMITS, sessionResultViews } from '../agent';
import { createMemoryContentStore } from '../context';
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import { builtinTools, createIdbMemoryStore } from '../modules';
import { discoverSkills } from '../modules';
import type { HarnessDb } from '../storage';
import {
  groupedSelector,
  parseToolViewConfig,
  selectToolView,
  type ToolSelector,
  type ToolViewConfig,
} from '../tool-views';
import { ToolRegistry } from '../tools';
import { AGENT_SETTINGS_VERSION, agentWorkspaceScope, readAgentSettings } from './agent-settings';

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
export async function saveToolView(
  db: HarnessDb,
  workspaceId: string,
  view: ToolViewConfig | null,
): Promise<ToolViewConfig | null> {
  const checked = view ? parseToolViewConfig(view, 'tool view') : null;
  const current = { ...(await values(db, workspaceId)) };
  if (checked) current.toolView = checked;
  else delete current.toolView;
  await db.put('settings', {
    scope: agentWorkspaceScope(workspaceId),
    version: AGENT_SETTINGS_VERSION,
    values: current,
    updatedAt: Date.now(),
  });
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
        throw new HarnessError(
          refused.code,
          `${refused.message} Fix or reset "Tools the agent sees" in Settings → Agent.`,
          refused.data,
        );
      },
    };
  }
  return view ? { toolView: groupedSelector(view) } : {};
}

/** What Settings can count without a turn, and the view's figures over it. */
export interface ToolViewSummary {
  /** Tools of the view among the built-ins this workspace's profile offers (files, search, memory, skills). */
  count: number;
  /** UTF-8 bytes of those schemas as JSON. */
  bytes: number;
  /** Entries only a turn can judge: web, plugin:, bridge, mcp: groups and names not among those built-ins. */
  atTurnStart: string[];
  /** The view refused over the built-ins (a limit, an unknown built-in group), or null. */
  error: ErrorData | null;
}

const TURN_ONLY_GROUP = /^(web|bridge|plugin:.+|mcp:.+)$/;

/**
 * Counts a view (null: all tools) over the built-in tools the workspace's profile offers, built as a turn builds
 * them: plugin, bridge and MCP tools, and web tools (they need the bridge or a search key), exist only when a turn
 * starts, so entries naming them are listed in `atTurnStart` rather than judged here.
 */
export async function summariseToolView(
  db: HarnessDb,
  workspaceId: string,
  view: ToolViewConfig | null,
): Promise<ToolViewSummary> {
  const { modules } = await readAgentSettings(db, workspaceId);
  const registry = new ToolRegistry();
  // Skills listed from no folder: only the tools' schemas are needed here, and they do not depend on the catalog.
  for (const tool of builtinTools({
    selection: modules.selection,
    memory: createIdbMemoryStore(db),
    skills: () => discoverSkills([]),
  }))
    registry.register(tool);
  registry.register(
    sessionResultViews({ store: createMemoryContentStore(SESSION_RESULT_STORE_LIMITS), sessionId: 'settings' }).tool,
  );
  const atTurnStart = view
    ? [...view.groups.filter((g) => TURN_ONLY_GROUP.test(g)), ...view.names.filter((n) => !registry.has(n))]
    : [];
  const judged = view
    ? { names: view.names.filter((n) => registry.has(n)), groups: view.groups.filter((g) => !TURN_ONLY_GROUP.test(g)) }
    : null;
  try {
    const v = selectToolView(registry, groupedSelector(judged));
    return { count: v.tools.length + v.pluginTools.length, bytes: v.bytes, atTurnStart, error: null };
  } catch (error) {
    return { count: 0, bytes: 0, atTurnStart, error: toErrorData(error, 'E_TOOL_VIEW_INVALID') };
  }
}
