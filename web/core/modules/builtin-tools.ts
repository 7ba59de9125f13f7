// The ToolDefinition[] one agent run gets for a profile: the core file tools always (no profile, disabled list or
// binding removes or replaces them), then the module tools of each enabled module whose dependencies exist.
// A module bound to a bridge worker contributes nothing here: the bridge client registers the worker's tools
// under the same public schema, and there is no fallback to the built-in implementation if the worker fails.
// web_fetch appears only with a WebFetchBackend (paired bridge, or Node in headless `i`).
import { coreFileTools } from '../tools';
import type { ToolDefinition } from '../contracts';
import type { ContextState } from './context';
import { memoryTools, type MemoryStore } from './memory';
import { DEFAULT_SELECTION, planModules, type Bindings, type ModuleName, type ProfileSelection } from './profiles';
import { skillTools, type CatalogSource } from './skills';
import { webFetchTool, webSearchTool, type WebFetchBackend, type WebSearchDeps } from './web';

export interface BuiltinToolsOptions {
  selection?: ProfileSelection;
  bindings?: Bindings;
  memory?: MemoryStore;
  skills?: CatalogSource;
  webFetch?: WebFetchBackend;
  webSearch?: WebSearchDeps;
}

/** Modules that run built-in in this selection (enabled and not bound to a worker). */
export function builtinModules(
  selection: ProfileSelection = DEFAULT_SELECTION,
  bindings: Bindings = {},
): Set<ModuleName> {
  return new Set(
    planModules(selection, bindings)
      .filter((p) => p.runs === 'builtin')
      .map((p) => p.module),
  );
}

export function builtinTools(options: BuiltinToolsOptions = {}): ToolDefinition[] {
  const modules = builtinModules(options.selection, options.bindings);
  const tools = coreFileTools();
  if (modules.has('memory') && options.memory) tools.push(...memoryTools(options.memory));
  if (modules.has('skills') && options.skills) tools.push(...skillTools(options.skills));
  if (modules.has('web')) {
    if (options.webFetch) tools.push(webFetchTool(options.webFetch));
    if (options.webSearch) tools.push(webSearchTool(options.webSearch));
  }
  return tools;
}

/**
 * The loop's `context` port (web/core/agent TurnDeps.context) for a selection: memory and skills listings of the
 * enabled, unbound modules; a disabled or bound module, or one without its store, is undefined (shows nothing, and
 * what it showed before is removed by a delta). Browser-safe: the app passes its memory store and skill catalog.
 */
export function moduleContext(
  options: Pick<BuiltinToolsOptions, 'selection' | 'bindings' | 'memory' | 'skills'>,
): (workspaceId: string) => Promise<ContextState> {
  const active = builtinModules(options.selection, options.bindings);
  return async (workspaceId) => {
    const state: ContextState = {};
    if (active.has('memory') && options.memory) state.memory = (await options.memory.read(workspaceId)).entries;
    if (active.has('skills') && options.skills)
      state.skills = (await options.skills()).skills.map(({ name, description, source }) => ({
        name,
        description,
        source,
      }));
    return state;
  };
}
