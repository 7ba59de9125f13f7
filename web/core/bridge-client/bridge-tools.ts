// Bridge tools as agent tools, the bridge as the web_fetch backend, and the bridge's hooks. Every bridge tool is
// external with approval 'ask' (seed 000 §5): it runs a native program the person installed. Calls name the
// chosen bridge root as their workspace and the app's workspace UUID as workspace_id; the bridge refuses a root
// it was not started with.
import { HarnessError, toErrorData } from '../contracts';
import type { ToolDefinition, ToolResult } from '../contracts';
import type { BridgeClient, BridgeCallResult, BridgeWorkspace } from './client';

export type ToolSource = () => Promise<ToolDefinition[]>;

/** Structurally the `WebFetchBackend` port of web/core/modules/web (`webFetchTool(backend)`). */
export interface BridgeWebFetchBackend {
  readonly name: string;
  fetch(url: string, signal: AbortSignal): Promise<ToolResult>;
}

function toResult(r: BridgeCallResult): ToolResult {
  return { output: r.output, ...(r.images ? { images: r.images } : {}) };
}

function failure(error: unknown): ToolResult {
  const { code, message } = toErrorData(error, 'E_BRIDGE_FAILED');
  return { error: true, code, output: `${code}: ${message}` };
}

/** The MCP server of a bridge tool named `mcp__<server>__<tool>`, or null for the bridge's own workers' tools. */
export function mcpServerOf(name: string): string | null {
  const m = /^mcp__(.+?)__./.exec(name);
  return m ? m[1]! : null;
}

/** Called at task start: lists the bridge's tools (web_fetch excluded: it is offered through its backend). */
export function bridgeToolSource(client: BridgeClient, where: () => BridgeWorkspace): ToolSource {
  return async () => {
    const manifest = await client.manifest();
    return manifest.tools
      .filter((t) => t.name !== 'web_fetch')
      .map((tool): ToolDefinition => ({
        schema: { name: tool.name, description: `${tool.description} (i-bridge)`, parameters: tool.parameters },
        approval: 'ask',
        external: true,
        // The bridge names an MCP server's tools `mcp__<server>__<tool>` (bridge/mcp-hub.ts).
        origin: mcpServerOf(tool.name) !== null ? { kind: 'mcp', server: mcpServerOf(tool.name)! } : { kind: 'bridge' },
        async prepare() {
          return { summary: `Run ${tool.name} on i-bridge (${where().workspace})` };
        },
        async execute(args, ctx) {
          try {
            return toResult(
              await client.callTool(tool.name, args, { ...where(), workspaceId: ctx.workspaceId }, ctx.signal),
            );
          } catch (error) {
            return failure(error);
          }
        },
      }));
  };
}

/** web_fetch through the bridge (which checks every address it connects to); only when the bridge offers it. */
export async function bridgeWebFetchBackend(
  client: BridgeClient,
  where: () => BridgeWorkspace,
): Promise<BridgeWebFetchBackend | undefined> {
  const manifest = await client.manifest();
  if (!manifest.tools.some((t) => t.name === 'web_fetch')) return undefined;
  return {
    name: 'bridge',
    async fetch(url, signal) {
      const r = await client.callTool('web_fetch', { url }, where(), signal);
      return toResult(r);
    },
  };
}

/** Runs the bridge's hooks of one event; the hooks return the complete data (seed 000 §1). */
export function bridgeHooks(client: BridgeClient, where: () => BridgeWorkspace) {
  return {
    async events(): Promise<string[]> {
      const manifest = await client.manifest();
      return [...new Set(manifest.hooks.flatMap((h) => h.events))].sort();
    },
    async run(event: string, data: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
      if (!/^[a-z_]{1,64}$/.test(event))
        throw new HarnessError('E_BRIDGE_HOOK_EVENT', `"${event}" is not a hook event name.`);
      return client.runHooks(event, data, where(), signal);
    },
  };
}
