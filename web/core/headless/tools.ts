// The tools a headless run offers. Built-in tools register here as they land (web/core/tools/builtin); until
// then the registry holds only what exists, and the model is offered no tool it cannot call.
import type { WorkspaceFs } from '../fs';
import { ToolRegistry } from '../tools/registry';
import type { ToolDefinition } from '../tools/types';

export function createHeadlessTools(_fs: WorkspaceFs, extra: readonly ToolDefinition[] = []): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of extra) registry.register(tool);
  return registry;
}
