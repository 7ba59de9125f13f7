// What the next request of a session will hold, part by part (the app's context meter and `/context`). It is the
// request the next turn would send: the saved history, or — for a session that has none yet — the head a turn
// would put first (system prompt, AGENTS.md) and the memory/skills snapshot; the tool schemas per source.
import { contextMessagesToAppend, loadProjectInstructions, resolveSystemPrompt, type ContextState } from '../modules';
import type { WorkspaceFs } from '../contracts';
import type { BudgetSettings } from '../hooks';
import type { Message, ToolSchema } from '../contracts';
import type { ToolRegistry } from '../tools';
import { selectToolView, type ToolSelector } from '../tool-views';
import type { ContextBreakdown } from '../contracts';
import type { CheckpointEvent } from '../checkpoints';
import type { ErrorData } from '../contracts';
import { contextBreakdown } from '../agent';

export type ToolOrigin = 'builtin' | 'plugins' | 'bridge' | 'mcp';

const SOURCE = { plugin: 'plugins', bridge: 'bridge', mcp: 'mcp' } as const;

/**
 * The tool schemas the model sees from a turn's registry (its tool view, when the workspace set one: Settings → Agent
 * → Tools the agent sees), each with where it came from (built-ins are the non-external tools). A view the turn would
 * refuse shows every tool here; the turn itself says what is wrong.
 */
export function sourcedTools(
  registry: ToolRegistry,
  selector?: ToolSelector,
): Array<{ source: ToolOrigin; schema: ToolSchema }> {
  let visible: Set<string> | null = null;
  if (selector) {
    try {
      const view = selectToolView(registry, selector);
      visible = new Set([...view.tools, ...view.pluginTools].map((t) => t.name));
    } catch {
      visible = null;
    }
  }
  // An external tool without an origin (a tool source registered by the app) counts as a plugin's.
  return registry.names().flatMap((name) => {
    const d = registry.get(name);
    if (!d || (visible && !visible.has(name))) return [];
    return [{ source: d.external ? SOURCE[d.origin?.kind ?? 'plugin'] : ('builtin' as const), schema: d.schema }];
  });
}

export interface BreakdownInput {
  history: Message[];
  fs: WorkspaceFs;
  /** The stored replacement system prompt, when there is one. */
  systemPrompt?: string;
  context?: () => Promise<ContextState> | ContextState;
  tools: Array<{ source: ToolOrigin; schema: ToolSchema }>;
  budget: BudgetSettings | null;
  keepRecent: number;
}

/** The breakdown of the next request; a history without a system prompt gets the head a new turn would add. */
export async function nextRequestBreakdown(input: BreakdownInput): Promise<ContextBreakdown> {
  let history = input.history;
  if (!history.some((m) => m.role === 'system')) {
    const head: Message[] = [
      {
        role: 'system',
        content: resolveSystemPrompt({
          workspace: input.fs.rootName,
          ...(input.systemPrompt !== undefined ? { replacement: input.systemPrompt } : {}),
        }),
      },
    ];
    // An unreadable AGENTS.md is left out here as the turn leaves it out (the turn says why).
    const instructions = await loadProjectInstructions(input.fs).catch(() => null);
    if (instructions) head.push(instructions);
    history = [...head, ...history];
  }
  if (input.context) {
    const state = await Promise.resolve(input.context()).catch(() => null);
    if (state) history = [...history, ...contextMessagesToAppend(history, state)];
  }
  return contextBreakdown({ history, tools: input.tools, budget: input.budget, keepRecent: input.keepRecent });
}

/**
 * What the person is told about undo history while a turn writes: older states dropped to stay under the cap (never
 * silent), or a write whose new state could not be kept (that change cannot be reverted).
 */
export function checkpointNote(event: CheckpointEvent, warn: (error: ErrorData) => void): void {
  if (event.type === 'pruned') {
    const p = event.pruned;
    warn({
      code: 'N_CHECKPOINTS_PRUNED',
      message: `Older undo history was removed to stay under the workspace's cap: ${p.records} saved file states (${Math.round(p.bytes / 1024)} KiB) can no longer be reverted.`,
      data: { ...p },
    });
  } else if (event.type === 'untracked') {
    warn({
      code: 'E_CHECKPOINT_UNTRACKED',
      message: `The change to ${event.path} was made, but it is not in the undo history (${event.error.code}): revert this file by hand if you need to.`,
      data: { path: event.path, cause: event.error.code },
    });
  }
}
