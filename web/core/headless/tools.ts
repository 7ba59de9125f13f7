// The tools a headless run offers: the core file tools (read, write, edit, glob, search, view_image) over the
// run's WorkspaceFs, in their stable order. Module tools (skills, memory, web) join when profiles are loaded.
import { ToolRegistry } from '../tools/registry';
import { coreFileTools } from '../tools/builtin';
import type { ToolDefinition } from '../tools/types';

export function createHeadlessTools(extra: readonly ToolDefinition[] = []): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of [...coreFileTools(), ...extra]) registry.register(tool);
  return registry;
}
