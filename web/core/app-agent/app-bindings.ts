// Settings → Agent bindings at turn start (seed 000 §1): a module bound to the paired i-bridge runs only there, so
// the bridge must serve it — every tool of the module by its built-in name, a hook for each of its events. When it
// does not (no bridge, or its manifest lacks the entries), the turn refuses to start: the built-in module never
// stands in, and a half-served module is not run either.
import { HarnessError } from '../contracts';
import type { HookHandler } from '../hooks';
import {
  MODULE_HOOK_EVENTS,
  MODULE_TOOL_NAMES,
  enabledModules,
  type Bindings,
  type ModuleName,
  type ProfileSelection,
} from '../modules';
import type { ToolDefinition } from '../contracts';

const MODULE_TOOLS: Partial<Record<ModuleName, readonly string[]>> = {
  memory: MODULE_TOOL_NAMES.filter((n) => n.startsWith('memory_')),
  skills: MODULE_TOOL_NAMES.filter((n) => n.startsWith('skill_')),
};

/** Throws E_BINDING_WORKER_MISSING naming what the paired bridge lacks for a bound, enabled module. */
export function checkBridgeServes(
  selection: ProfileSelection,
  bindings: Bindings,
  bridge: { tools: ToolDefinition[]; hooks: HookHandler[] },
): void {
  const tools = new Set(bridge.tools.filter((t) => t.origin?.kind === 'bridge').map((t) => t.schema.name));
  const events = new Set(bridge.hooks.filter((h) => h.name === 'i-bridge').flatMap((h) => h.events));
  for (const module of enabledModules(selection)) {
    if (!bindings[module]) continue;
    const missing = [
      ...(MODULE_TOOLS[module] ?? []).filter((n) => !tools.has(n)),
      ...MODULE_HOOK_EVENTS[module].filter((e) => !events.has(e) && !events.has('*')).map((e) => `a ${e} hook`),
    ];
    if (missing.length) {
      throw new HarnessError(
        'E_BINDING_WORKER_MISSING',
        `The ${module} module is bound to the paired i-bridge (Settings → Agent), but the bridge does not offer ${missing.join(', ')}. Pair a bridge whose manifest serves the module, or remove the binding; the built-in module does not stand in.`,
        { module, missing },
      );
    }
  }
}
