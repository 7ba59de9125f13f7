// What a turn gets beyond the built-ins, gathered once at turn start: the workspace's enabled plugin tools (pinned
// for the turn: an update or removal mid-turn never swaps their code), and — when a bridge is paired and answers —
// its tools, web_fetch through it, and its hooks as manifest hooks (after the profile modules). Loaded lazily by
// create-app-agent so the plugin runtime and bridge client stay out of the chat's first chunk. Nothing here fails
// the turn: an unavailable source is a warning naming it, and the turn goes on without its tools.
import type { BridgeClient, BridgeConnection } from '../bridge-client';
import { bridgeHooks, bridgeToolSource, bridgeWebFetchBackend } from '../bridge-client';
import { toErrorData, type ErrorData } from '../contracts';
import { HOOK_EVENTS, manifestHookHandler, type HookEvent, type HookHandler } from '../hooks';
import type { WebFetchBackend } from '../modules';
import type { WriteApproval, WriteApprovalRequest } from '../../../plugin-host';
import { pluginToolSource, writeApprovalDiff, type PluginService } from '../plugins';
import type { ToolDefinition } from '../contracts';
import type { AgentSettings } from './agent-settings';
import type { RuleSet } from '../approval';

/** One fs.write of a plugin tool, as the person is asked about it (path and diff). */
export interface PluginWriteRequest {
  /** The model's tool call that runs the plugin. */
  callId: string;
  /** The tool's public name. */
  tool: string;
  pluginId: string;
  /** The normalised workspace-relative path that will be written. */
  path: string;
  /** The path as the plugin sent it, only when it differs from `path` (the card shows `raw → path`). */
  rawPath?: string;
  /** Present when the write policy says this file always asks, with the reason's class and English text. */
  alwaysAsk?: WriteApprovalRequest['alwaysAsk'];
  /** False when the write creates the file. */
  exists: boolean;
  /** Unified diff of the write (bounded like the built-in tools'). */
  diff: string;
}

/** The chat's write card. Resolves true to allow this one write; false, a rejection or an abort deny it. */
export type AskWrite = (request: PluginWriteRequest, signal: AbortSignal) => Promise<boolean>;

export interface ConnectedBridge {
  client: BridgeClient;
  connection: BridgeConnection;
}

export interface ExtensionPorts {
  workspaceId: string;
  approval: AgentSettings['approval'];
  plugins: PluginService | null;
  bridge: (() => Promise<ConnectedBridge | undefined>) | null;
  askWrite?: AskWrite;
  signal: AbortSignal;
  /** The person's approval rules: they also judge each file write of a plugin, by its path. */
  rules?: RuleSet;
}

export interface TurnExtensions {
  tools: ToolDefinition[];
  webFetch?: WebFetchBackend;
  hooks: HookHandler[];
  warnings: ErrorData[];
}

/** How long turn start waits for the bridge's manifest before going on without it. */
export const BRIDGE_MANIFEST_MS = 5_000;

const unavailable = (source: string, error: unknown): ErrorData => {
  const e = toErrorData(error, 'E_TOOL_SOURCE_FAILED');
  return {
    code: 'E_TOOL_SOURCE_FAILED',
    message: `The tools of ${source} are unavailable this turn: ${e.message}`,
    data: { source, cause: e.code },
  };
};

export async function turnExtensions(ports: ExtensionPorts): Promise<TurnExtensions> {
  const out: TurnExtensions = { tools: [], hooks: [], warnings: [] };
  const [plugins, bridge] = await Promise.allSettled([
    pluginTools(ports),
    ports.bridge ? bridgeExtensions(ports.bridge, ports) : Promise.resolve(undefined),
  ]);
  if (plugins.status === 'fulfilled') out.tools.push(...plugins.value);
  else out.warnings.push(unavailable('plugins', plugins.reason));
  if (bridge.status === 'rejected') out.warnings.push(unavailable('i-bridge', bridge.reason));
  else if (bridge.value) {
    out.tools.push(...bridge.value.tools);
    if (bridge.value.webFetch) out.webFetch = bridge.value.webFetch;
    out.hooks.push(...bridge.value.hooks);
    out.warnings.push(...bridge.value.warnings);
  }
  return out;
}

async function pluginTools({
  plugins,
  workspaceId,
  approval,
  askWrite,
  rules,
}: ExtensionPorts): Promise<ToolDefinition[]> {
  if (!plugins) return [];
  const source = pluginToolSource(plugins, {
    workspaceId,
    // ask shows each write's path and diff on the chat's card; auto shows only the files that always ask (.vscode/,
    // .envrc, CI workflows…); yolo writes without asking. .git is refused in all three by the write policy.
    approval: (call): WriteApproval => {
      if (rules && rules.size > 0) return ruledWrites(call, approval, rules, askWrite);
      if (approval === 'yolo') return { mode: 'yolo' };
      const approve = personApproves(call, askWrite);
      return { mode: approval === 'auto' ? 'auto' : 'ask', approve };
    },
  });
  return source();
}

/** Asks the person on the chat's write card (path and diff); no card (headless, a closed page) denies. */
function personApproves(call: { callId: string; publicName: string }, askWrite: AskWrite | undefined) {
  return async (request: WriteApprovalRequest, signal: AbortSignal): Promise<boolean> => {
    if (!askWrite) return false;
    const card: PluginWriteRequest = {
      callId: call.callId,
      tool: call.publicName,
      pluginId: request.pluginId,
      path: request.path,
      ...(request.rawPath !== undefined ? { rawPath: request.rawPath } : {}),
      ...(request.alwaysAsk ? { alwaysAsk: request.alwaysAsk } : {}),
      exists: request.exists,
      diff: writeApprovalDiff(request),
    };
    return (await askWrite(card, signal).catch(() => false)) === true && !signal.aborted;
  };
}

/**
 * Plugin writes under approval rules: every write is judged by its path (so the host asks `approve` for each), a
 * matching deny refuses it even in yolo, an allow writes it unasked (a file that always asks still asks), no rule
 * leaves the mode's answer.
 */
function ruledWrites(
  call: { callId: string; publicName: string },
  approval: AgentSettings['approval'],
  rules: RuleSet,
  askWrite: AskWrite | undefined,
): WriteApproval {
  const ask = personApproves(call, askWrite);
  return {
    mode: 'ask',
    approve: async (request, signal) => {
      const tool: ToolDefinition = {
        schema: { name: call.publicName, description: '', parameters: {} },
        approval: 'ask',
        external: true,
        origin: { kind: 'plugin', pluginId: request.pluginId },
        execute: async () => ({ output: '' }),
      };
      const rule = rules.decide(
        tool,
        { path: request.path, ...(request.realPath !== undefined ? { realPath: request.realPath } : {}) },
        true,
      );
      if (rule?.decision === 'deny') return false;
      if (approval === 'yolo') return true;
      if (request.alwaysAsk) return ask(request, signal);
      if (rule?.decision === 'allow' || (!rule && approval === 'auto')) return true;
      return ask(request, signal);
    },
  };
}

async function bridgeExtensions(
  connect: () => Promise<ConnectedBridge | undefined>,
  { workspaceId, signal }: ExtensionPorts,
) {
  const connected = await connect();
  if (!connected) return undefined; // not paired: nothing to offer, nothing to warn about
  const { client, connection } = connected;
  // One manifest request per turn, shared by the tools, web_fetch and hooks; bounded so a hung bridge cannot hold the turn.
  const manifest = client.manifest(AbortSignal.any([signal, AbortSignal.timeout(BRIDGE_MANIFEST_MS)]));
  const once: BridgeClient = { ...client, manifest: () => manifest };
  const where = () => ({ workspace: connection.root, workspaceId });
  const tools = await bridgeToolSource(once, where)();
  const webFetch = await bridgeWebFetchBackend(once, where);
  const warnings: ErrorData[] = [];
  const hooks: HookHandler[] = [];
  const runner = bridgeHooks(once, where);
  const listed = await runner.events();
  // `*` subscribes to every event (seed 000 §1): the bridge then runs those hooks for whichever event is sent.
  const known = listed.filter((e): e is HookEvent | '*' => e === '*' || (HOOK_EVENTS as readonly string[]).includes(e));
  const unknown = listed.filter((e) => !known.includes(e as HookEvent | '*'));
  if (unknown.length) {
    warnings.push({
      code: 'E_HOOK_UNKNOWN_EVENT',
      message: `i-bridge lists hooks for events this app does not have (${unknown.join(', ')}); they do not run. Check the bridge manifest.`,
      data: { source: 'i-bridge', events: unknown },
    });
  }
  const events = known.includes('*') ? (['*'] as const) : known;
  if (events.length)
    hooks.push(manifestHookHandler('i-bridge', events, (event, data, s) => runner.run(event, data, s)));
  return { tools, ...(webFetch ? { webFetch } : {}), hooks, warnings };
}
