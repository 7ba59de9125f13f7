// What a module bound to a worker (bindings.json, seed 000 §1) puts in the manifest the worker runs under: the
// module's hook events and its tools with their unchanged public schemas, each with the binding's exec and cwd.
// "替换会覆盖该模块全部已选 hook/工具入口，不改变工具公开 schema；失败不会回退内置实现": the built-in module is not
// registered at all (builtinModules leaves bound modules out), so a failing worker fails its call or its hook.
// Bindings whose module has nothing a worker can take over are refused rather than silently doing nothing.
import { HarnessError } from '../../contracts';
import type { HookEvent } from '../../hooks';
import type { ToolSchema } from '../../contracts';
import { createInMemoryMemoryStore, memoryTools } from '../memory';
import { skillTools } from '../skills';
import { webSearchTool, type WebSearchConfig } from '../web';
import type { Bindings } from './bindings';
import { enabledModules, type ModuleName, type ProfileSelection } from './profiles';

/** The hook events each module handles (seed 000 §6; the legacy Responses hook rewrites requests and responses). */
export const MODULE_HOOK_EVENTS: Readonly<Record<ModuleName, readonly HookEvent[]>> = {
  approval: ['tool_approval'],
  budget: ['context_budget'],
  compact: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'],
  cache: ['before_request', 'request_retry', 'after_response'],
  responses: ['before_request', 'after_response'],
  'responses-budget': ['context_budget'],
  'responses-compact': ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'],
  memory: [],
  search: [],
  skills: [],
  web: [],
};

export interface BoundTool extends ToolSchema {
  exec: string[];
  cwd?: string;
  /** The module it replaces (for messages and tests; never sent to the model). */
  module: ModuleName;
}

export interface BoundHook {
  events: HookEvent[];
  exec: string[];
  cwd?: string;
  module: ModuleName;
}

export interface BoundEntries {
  tools: BoundTool[];
  hooks: BoundHook[];
}

/** The public schemas of a module's tools, from the built-in definitions themselves (never run here). */
function moduleToolSchemas(module: ModuleName, webSearch: WebSearchConfig | undefined): ToolSchema[] {
  switch (module) {
    case 'memory':
      return memoryTools(createInMemoryMemoryStore()).map((t) => t.schema);
    case 'skills':
      return skillTools(async () => ({ skills: [], problems: [] })).map((t) => t.schema);
    case 'web':
      return webSearch ? [webSearchTool({ config: webSearch, getSecret: async () => undefined }).schema] : [];
    default:
      return [];
  }
}

const unsupported = (module: string, why: string, at: string) =>
  new HarnessError('E_BINDING_UNSUPPORTED', `At ${at}.${module}: ${why} Remove this binding.`, {
    at: `${at}.${module}`,
    module,
  });

/**
 * The manifest entries of the enabled, bound modules. `web` cannot be bound: web_fetch is i-bridge's own tool (the
 * bridge reserves its name) and the module would be left half replaced; `search` has nothing to replace.
 */
export function boundModuleEntries(
  selection: ProfileSelection,
  bindings: Bindings,
  o: { webSearch?: WebSearchConfig; at?: string } = {},
): BoundEntries {
  const at = o.at ?? 'bindings.json';
  const out: BoundEntries = { tools: [], hooks: [] };
  for (const module of enabledModules(selection)) {
    const binding = bindings[module];
    if (!binding) continue;
    if (module === 'web')
      throw unsupported(
        module,
        "web_fetch is i-bridge's own tool, so a worker cannot take over the web module whole.",
        at,
      );
    if (module === 'search')
      throw unsupported(
        module,
        'the search module has no hooks or tools to replace (glob and search are core tools).',
        at,
      );
    if (!('exec' in binding))
      throw unsupported(
        module,
        'a {"worker": "bridge"} binding names the app\'s paired i-bridge; headless i starts the program itself: use {"exec": [...], "cwd": "..."}.',
        at,
      );
    const where = { exec: [...binding.exec], ...(binding.cwd !== undefined ? { cwd: binding.cwd } : {}), module };
    for (const schema of moduleToolSchemas(module, o.webSearch)) out.tools.push({ ...schema, ...where });
    const events = MODULE_HOOK_EVENTS[module];
    if (events.length) out.hooks.push({ events: [...events], ...where });
  }
  return out;
}
