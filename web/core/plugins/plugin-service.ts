// The app's plugin runtime wiring: the registry over IndexedDB, the KV store over IndexedDB, one ModuleCache and a
// spare module Worker, and `invoke` — the one path both the agent's plugin tools and Settings → "Try a tool" use,
// so what a plugin author sees there is what the agent gets.
import {
  browserWorkerFactory,
  createPluginRegistry,
  invokePlugin,
  ModuleCache,
  spareWorkers,
  type InvokeResult,
  type PluginRegistry,
  type PluginSnapshot,
  type SpareWorkers,
  type WorkerFactory,
  type WorkspaceFs,
  type WriteApproval,
} from '../../../plugin-host';
import type { HarnessDb } from '../storage';
import { IdbKvStore } from './idb-kv-store';
import { IdbRegistryStorage } from './idb-registry-storage';

export interface InvokeToolOptions {
  fs: WorkspaceFs | null;
  approval: WriteApproval;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface PluginService {
  readonly registry: PluginRegistry;
  readonly kv: IdbKvStore;
  /**
   * Runs the tool behind `publicName` with the code pinned in `snapshot`. Never throws: an unknown name is an
   * aborted result with E_RUN_UNKNOWN_TOOL.
   */
  invoke(snapshot: PluginSnapshot, publicName: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult>;
  dispose(): Promise<void>;
}

export interface PluginServiceOptions {
  /** Defaults to a module Worker per invocation with one spare started ahead of time (browser). */
  createWorker?: WorkerFactory;
}

export function createPluginService(db: HarnessDb, options: PluginServiceOptions = {}): PluginService {
  const kv = new IdbKvStore(db);
  const registry = createPluginRegistry({ storage: new IdbRegistryStorage(db), kv });
  const moduleCache = new ModuleCache();
  // Started on first use, not at page load: most sessions never run a plugin.
  let spares: SpareWorkers | undefined;
  const createWorker: WorkerFactory = options.createWorker ?? (() => (spares ??= spareWorkers(browserWorkerFactory)).factory());

  return {
    registry,
    kv,
    async invoke(snapshot, publicName, args, { fs, approval, signal, timeoutMs }) {
      const found = snapshot.resolve(publicName);
      if (!found) {
        return {
          status: 'aborted',
          invocationId: 'none',
          sideEffects: false,
          hostCalls: 0,
          durationMs: 0,
          error: { code: 'E_RUN_UNKNOWN_TOOL', message: `No enabled plugin offers ${publicName} in this workspace. Enable the plugin in Settings → Plugins.` },
        };
      }
      return invokePlugin({
        plugin: found.plugin,
        tool: found.tool.name,
        arguments: args,
        workspaceId: snapshot.workspaceId,
        fs,
        kv,
        approval,
        createWorker,
        moduleCache,
        ...(signal ? { signal } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
    },
    async dispose() {
      await spares?.dispose();
    },
  };
}
