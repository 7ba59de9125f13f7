// What the model config's native workers give a headless run: the manifest's tools (external, approval 'ask':
// refused without --yolo), its hooks as manifest hooks (after the profile modules), and the provider adapter of a
// custom protocol or an explicit binding — all through a private i-bridge that `stop()` ends.
// Without `plugins` and `provider` nothing starts; a custom protocol then has no provider and is refused.
import {
  bridgeHooks,
  bridgeProviderAdapter,
  bridgeToolSource,
  createBridgeClient,
  type BridgeClient,
} from '../../bridge-client';
import type { ModelConfig } from '../../config';
import type { BoundEntries } from '../../modules';
import { HarnessError } from '../../contracts';
import { HOOK_EVENTS, manifestHookHandler, type HookEvent, type HookHandler } from '../../hooks';
import { isBuiltinProtocol, type ProviderAdapter } from '../../providers';
import type { ToolDefinition } from '../../contracts';
import { buildNativeManifest } from './native-manifest';
import { startPrivateBridge } from './private-bridge';

export interface NativeWorkers {
  tools: ToolDefinition[];
  hooks: HookHandler[];
  /** The provider worker's adapter; undefined: the built-in adapter of the protocol. */
  adapter: ProviderAdapter | undefined;
  /** Things to tell the person (e.g. hook events this version does not have). */
  warnings: string[];
  /** The private bridge's pid, if one runs. */
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface NativeWorkerOptions {
  config: Pick<ModelConfig, 'protocol' | 'plugins' | 'provider'> & Partial<Pick<ModelConfig, 'io_limit_bytes'>>;
  configFile: string;
  workspace: string;
  /** --workspace-id (a checked UUID): sent with every call so workers see it; absent, the bridge's registry answers. */
  workspaceId?: string;
  env: Record<string, string | undefined>;
  /** The i-bridge script (tests); defaults to the one next to the running CLI. */
  bridgeScript?: string;
  /** Modules bound to workers (bindings.json): they run through the same private bridge, with no built-in fallback. */
  bound?: BoundEntries;
}

const NONE: NativeWorkers = {
  tools: [],
  hooks: [],
  adapter: undefined,
  warnings: [],
  pid: undefined,
  stop: async () => undefined,
};

export async function startNativeWorkers(options: NativeWorkerOptions): Promise<NativeWorkers> {
  const { config, configFile, workspace } = options;
  const custom = !isBuiltinProtocol(config.protocol);
  const bound = options.bound && (options.bound.tools.length || options.bound.hooks.length) ? options.bound : undefined;
  if (!config.plugins && !config.provider && !bound) {
    if (custom) {
      throw new HarnessError(
        'E_PROVIDER_MISSING',
        `Protocol "${config.protocol}" is not built in (openai, deepseek, anthropic, responses): bind its provider worker in ${configFile} with "provider": {"exec": [...]} or a "plugins" manifest that has "provider".`,
        { protocol: config.protocol },
      );
    }
    return NONE;
  }
  const native = await buildNativeManifest(config, configFile, bound);
  if (custom && !native.hasProvider) {
    throw new HarnessError(
      'E_PROVIDER_MISSING',
      `Protocol "${config.protocol}" is not built in, and neither "provider" in ${configFile} nor the plugins manifest ${native.pluginsFile ?? ''} names a provider worker. Add one.`,
      { protocol: config.protocol },
    );
  }
  const bridge = await startPrivateBridge({
    workspace,
    manifest: native.manifest,
    env: options.env,
    ...(config.io_limit_bytes !== undefined ? { ioLimitBytes: config.io_limit_bytes } : {}),
    ...(options.bridgeScript ? { script: options.bridgeScript } : {}),
  });
  try {
    const client = createBridgeClient({ url: bridge.url, token: bridge.token });
    // Without --workspace-id the bridge finds the folder's UUID in the registry headless i shares with it (the
    // same one), so calls name only the workspace (the bridge's single root).
    const where = () => ({ workspace, ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}) });
    const local: BridgeClient = {
      ...client,
      callTool: (name, args, _where, signal) => client.callTool(name, args, where(), signal),
    };
    const manifest = await local.manifest();
    const once: BridgeClient = { ...local, manifest: async () => manifest };
    const tools = await bridgeToolSource(once, where)();
    const warnings: string[] = [];
    const runner = bridgeHooks(once, where);
    const listed = await runner.events();
    const known = listed.filter(
      (e): e is HookEvent | '*' => e === '*' || (HOOK_EVENTS as readonly string[]).includes(e),
    );
    const unknown = listed.filter((e) => !known.includes(e as HookEvent | '*'));
    if (unknown.length)
      warnings.push(
        `the plugins manifest has hooks for events i does not have (${unknown.join(', ')}); they do not run.`,
      );
    const events = known.includes('*') ? (['*'] as const) : known;
    const hooks = events.length
      ? [manifestHookHandler('plugins', events, (event, data, signal) => runner.run(event, data, signal))]
      : [];
    // An explicit binding wins; a manifest provider serves the run too (seed 000 §1). No fallback on failure.
    const adapter = native.hasProvider
      ? bridgeProviderAdapter({ protocol: config.protocol, client: () => client, where })
      : undefined;
    return { tools, hooks, adapter, warnings, pid: bridge.pid, stop: bridge.stop };
  } catch (error) {
    await bridge.stop();
    throw error;
  }
}
