// The app's plugin runtime wiring: the registry over IndexedDB, the KV store over IndexedDB, one ModuleCache and a
// spare module Worker, and `invoke` — the one path both the agent's plugin tools and Settings → "Try a tool" use,
// so what a plugin author sees there is what the agent gets.
import {
  browserWorkerFactory,
  createPluginRegistry,
  invokePlugin,
  ModuleCache,
  spareWorkers,
  HarnessError,
  type ImportResult,
  type InvokeResult,
  type PluginRegistry,
  type PluginSnapshot,
  type SpareWorkers,
  type ValidatedPackage,
  type WorkerFactory,
  type WorkspaceFs,
  type WriteApproval,
} from '../../../plugin-host';
import type { HarnessDb } from '../storage';
import { IdbKvStore } from './idb-kv-store';
import { IdbRegistryStorage } from './idb-registry-storage';
import { factsOfInstalled, factsOfPackage, planImport, type ImportPlan } from './import-plan';
import { defaultValidator } from './validate-off-thread';

export interface InvokeToolOptions {
  fs: WorkspaceFs | null;
  approval: WriteApproval;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** An imported package, validated, with what importing it would do; nothing is stored until `apply`. */
export interface PreparedImport {
  readonly plan: ImportPlan;
  /** KV records the installed plugin of this id has in all workspaces: an update keeps them. */
  readonly storedEntries: number;
  /**
   * Carries out the plan with the package already validated (never validated again). Refuses with
   * E_PLUGIN_IMPORT_STALE when the installed plugin changed since the plan was shown; `unchanged` writes nothing.
   */
  apply(): Promise<ImportResult>;
}

export interface PluginService {
  readonly registry: PluginRegistry;
  readonly kv: IdbKvStore;
  /** Validates a .hplugin.zip (in a Worker in the browser) and plans its import; see PreparedImport. */
  prepareImport(bytes: Uint8Array): Promise<PreparedImport>;
  /**
   * Runs the tool behind `publicName` with the code pinned in `snapshot`. Never throws: an unknown name is an
   * aborted result with E_RUN_UNKNOWN_TOOL.
   */
  invoke(
    snapshot: PluginSnapshot,
    publicName: string,
    args: unknown,
    options: InvokeToolOptions,
  ): Promise<InvokeResult>;
  dispose(): Promise<void>;
}

export interface PluginServiceOptions {
  /** Defaults to a module Worker per invocation with one spare started ahead of time (browser). */
  createWorker?: WorkerFactory;
  /** Package validation; defaults to a Worker per import in the browser, in-process in Node (validate-off-thread.ts). */
  validate?: (bytes: Uint8Array) => Promise<ValidatedPackage>;
}

export function createPluginService(db: HarnessDb, options: PluginServiceOptions = {}): PluginService {
  const kv = new IdbKvStore(db);
  const validate = options.validate ?? defaultValidator();
  // Packages prepareImport has validated, keyed by the caller's bytes object (transferred, so detached by then):
  // the registry's own validation step gets the verified result instead of running the full check again.
  const verified = new WeakMap<Uint8Array, ValidatedPackage>();
  const registry = createPluginRegistry({
    storage: new IdbRegistryStorage(db),
    kv,
    validate: (bytes) => (verified.has(bytes) ? Promise.resolve(verified.get(bytes)!) : validate(bytes)),
  });
  const moduleCache = new ModuleCache();
  // Started on first use, not at page load: most sessions never run a plugin.
  let spares: SpareWorkers | undefined;
  const createWorker: WorkerFactory =
    options.createWorker ?? (() => (spares ??= spareWorkers(browserWorkerFactory)).factory());

  const sameInstall = (a: ImportPlan['installed'], b: ImportPlan['installed']) =>
    a?.sha256 === b?.sha256 && a?.version === b?.version;

  return {
    registry,
    kv,
    async prepareImport(bytes) {
      const pkg = await validate(bytes);
      verified.set(bytes, pkg);
      const current = await registry.get(pkg.manifest.id);
      const plan = planImport(current && factsOfInstalled(current), factsOfPackage(pkg));
      const storedEntries = current ? await kv.countOf(current.id) : 0;
      return {
        plan,
        storedEntries,
        async apply() {
          const now = await registry.get(plan.incoming.id);
          if (!sameInstall(now && factsOfInstalled(now), plan.installed)) {
            throw new HarnessError(
              'E_PLUGIN_IMPORT_STALE',
              `${plan.incoming.id} changed while this import waited (now ${now ? `${now.version}, sha256 ${now.sha256.slice(0, 12)}…` : 'not installed'}). Import the file again to see the new comparison.`,
              { id: plan.incoming.id },
            );
          }
          if (plan.decision === 'unchanged' && now) return { plugin: now, status: 'unchanged', disabledIn: [] };
          return registry.import(bytes, { replace: plan.decision === 'update' });
        },
      };
    },
    async invoke(snapshot, publicName, args, { fs, approval, signal, timeoutMs }) {
      const found = snapshot.resolve(publicName);
      if (!found) {
        return {
          status: 'aborted',
          invocationId: 'none',
          sideEffects: false,
          hostCalls: 0,
          durationMs: 0,
          error: {
            code: 'E_RUN_UNKNOWN_TOOL',
            message: `No enabled plugin offers ${publicName} in this workspace. Enable the plugin in Settings → Plugins.`,
          },
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
