// Enabled plugins as agent tools. The source is called once at task start: it pins the workspace's enabled
// plugins (a snapshot holding its own copy of the code), so updating or removing a plugin never swaps code under a
// running task. Every plugin tool is external with approval 'ask' (the agent's gate asks before the call), and
// each fs.write inside it asks again with the path and diff unless the approval mode is auto.
import type { InvokeResult, WriteApproval } from '../../../plugin-host';
import type { ToolDefinition, ToolResult } from '../contracts';
import type { PluginService } from './plugin-service';

/** A source of extra tools for one task; the agent calls it once when the task starts. */
export type ToolSource = () => Promise<ToolDefinition[]>;

export interface PluginToolSourceOptions {
  workspaceId: string;
  /**
   * Read when a tool call starts, with that call's id and tool name (so the write prompt can point at the call); a
   * change of approval mode applies to the next call.
   */
  approval: (call: { callId: string; publicName: string }) => WriteApproval;
}

/** Turns an invocation result into what the model sees; refusals carry their stable code. */
export function toToolResult(result: InvokeResult): ToolResult {
  switch (result.status) {
    case 'done':
      return { output: result.output };
    case 'error':
      return { error: true, code: 'E_RUN_PLUGIN_ERROR', output: `E_RUN_PLUGIN_ERROR: ${result.error}` };
    case 'aborted': {
      const note = result.sideEffects
        ? ' A write or storage change may have happened before it stopped; check the workspace before retrying.'
        : '';
      return { error: true, code: result.error.code, output: `${result.error.code}: ${result.error.message}${note}` };
    }
  }
}

export function pluginToolSource(
  service: PluginService,
  { workspaceId, approval }: PluginToolSourceOptions,
): ToolSource {
  return async () => {
    const snapshot = await service.registry.pin(workspaceId);
    return snapshot.tools.map((tool): ToolDefinition => ({
      schema: {
        name: tool.publicName,
        description: `${tool.description} (plugin ${tool.pluginId} ${tool.pluginVersion})`,
        parameters: tool.parameters,
      },
      approval: 'ask',
      external: true,
      origin: { kind: 'plugin', pluginId: tool.pluginId },
      async prepare() {
        return { summary: `Run ${tool.name} of plugin ${tool.pluginId} ${tool.pluginVersion}` };
      },
      async execute(args, ctx) {
        const result = await service.invoke(snapshot, tool.publicName, args, {
          fs: ctx.fs,
          approval: approval({ callId: ctx.callId, publicName: tool.publicName }),
          signal: ctx.signal,
        });
        return toToolResult(result);
      },
    }));
  };
}
