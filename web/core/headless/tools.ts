// The registry a headless run offers: the tools `loadNodeModules` chose for the profile (web/core/modules/node.ts):
// the core file tools (read, write, edit, glob, search, view_image) always, then the tools of the enabled, unbound
// modules (memory, skills, web — web_fetch through the Node backend, which runs the bridge's own fetch code).
import { ToolRegistry } from '../tools';
import type { ToolDefinition } from '../contracts';

export function createHeadlessTools(tools: readonly ToolDefinition[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return registry;
}
