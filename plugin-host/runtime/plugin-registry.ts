// The plugin registry: import a validated package → list → enable per workspace (installing does not enable) →
// pin a snapshot at task start → uninstall. One installed version per plugin id; a task's snapshot holds its own
// copy of the code, so updating or removing a plugin never swaps code under a running task.

import { HarnessError, quoteUntrusted } from '../errors';
import { validatePackage, type ValidatedPackage } from '../package';
import type { PluginPermissions } from './host-ops';
import type { KvStore } from './kv-store';
import type { InstalledPlugin, RegistryStorage, StoredPlugin } from './registry-storage';
import { publicToolName } from './tool-names';
import type { RuntimePlugin } from './invoke';

export interface ImportResult {
  plugin: InstalledPlugin;
  /** `installed`: new id; `updated`: another version replaced the installed one; `replaced`: same version, new bytes
   * (only with `replace: true`); `unchanged`: the same bytes were already installed. */
  status: 'installed' | 'updated' | 'replaced' | 'unchanged';
  previousVersion?: string;
  /** Workspaces where the plugin was switched off because the new version asks for more than the old one. */
  disabledIn: string[];
}

/** A plugin tool as a task sees it: enough to advertise it to the model and to invoke it. */
export interface PinnedTool {
  publicName: string;
  pluginId: string;
  pluginVersion: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The enabled plugins of one workspace, frozen at task start. */
export interface PluginSnapshot {
  workspaceId: string;
  plugins: readonly RuntimePlugin[];
  tools: readonly PinnedTool[];
  /** The pinned plugin and local tool name behind a public name, or undefined. */
  resolve(publicName: string): { plugin: RuntimePlugin; tool: PinnedTool } | undefined;
}

export interface PluginRegistry {
  import(packageBytes: Uint8Array, options?: { replace?: boolean }): Promise<ImportResult>;
  list(): Promise<InstalledPlugin[]>;
  get(id: string): Promise<InstalledPlugin | undefined>;
  enable(workspaceId: string, pluginId: string): Promise<void>;
  disable(workspaceId: string, pluginId: string): Promise<void>;
  enabledIn(workspaceId: string): Promise<InstalledPlugin[]>;
  /** Removes the code and its enablement everywhere; its KV data too when `deleteData` (ask the person first). */
  uninstall(pluginId: string, options?: { deleteData?: boolean }): Promise<void>;
  pin(workspaceId: string): Promise<PluginSnapshot>;
}

export interface RegistryOptions {
  storage: RegistryStorage;
  kv: KvStore;
  /** Package validation; the shared harness-wasm-v1 validator unless a test substitutes its own. */
  validate?: (bytes: Uint8Array) => Promise<ValidatedPackage>;
  now?: () => number;
}

const rank: Record<PluginPermissions['workspace'], number> = { none: 0, read: 1, 'read-write': 2 };
const widens = (from: PluginPermissions, to: PluginPermissions) =>
  rank[to.workspace] > rank[from.workspace] || (to.storage && !from.storage);

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const meta = ({ wasm: _w, licenseText: _l, ...rest }: StoredPlugin): InstalledPlugin => rest;

export function toRuntimePlugin(p: StoredPlugin): RuntimePlugin {
  return {
    id: p.id,
    version: p.version,
    sha256: p.sha256,
    permissions: { ...p.permissions },
    tools: p.tools.map((t) => ({ name: t.name })),
    wasm: p.wasm,
  };
}

export function createPluginRegistry({
  storage,
  kv,
  validate = validatePackage,
  now = Date.now,
}: RegistryOptions): PluginRegistry {
  async function mustGet(id: string): Promise<StoredPlugin> {
    const p = await storage.getPlugin(id);
    if (!p)
      throw new HarnessError(
        'E_REGISTRY_NOT_FOUND',
        `No plugin ${quoteUntrusted(id, 80)} is installed. Import its .hplugin.zip in Settings → Plugins.`,
        { id: id.length <= 80 ? id : quoteUntrusted(id, 80) },
      );
    return p;
  }

  return {
    async import(packageBytes, { replace = false } = {}) {
      const pkg = await validate(packageBytes);
      const m = pkg.manifest;
      const existing = await storage.getPlugin(m.id);
      if (existing && existing.sha256 === pkg.sha256 && existing.version === m.version) {
        return { plugin: meta(existing), status: 'unchanged', disabledIn: [] };
      }
      if (existing && existing.version === m.version && !replace) {
        throw new HarnessError(
          'E_REGISTRY_CONFLICT',
          `${m.id} ${m.version} is already installed with different code (sha256 ${existing.sha256.slice(0, 12)}… vs ${pkg.sha256.slice(0, 12)}…). Bump the version, or replace it explicitly.`,
          { id: m.id, version: m.version, installed: existing.sha256, imported: pkg.sha256 },
        );
      }
      if (existing && compareVersions(m.version, existing.version) < 0 && !replace) {
        throw new HarnessError(
          'E_REGISTRY_DOWNGRADE',
          `${m.id} ${existing.version} is installed; ${m.version} is older. Replace it explicitly to downgrade.`,
          {
            id: m.id,
            installed: existing.version,
            imported: m.version,
          },
        );
      }
      const stored: StoredPlugin = {
        id: m.id,
        name: m.name,
        version: m.version,
        sha256: pkg.sha256,
        permissions: { workspace: m.permissions.workspace, storage: m.permissions.storage },
        tools: m.tools.map((t) => ({
          name: t.name,
          publicName: publicToolName(m.id, t.name),
          description: t.description,
          parameters: t.parameters as Record<string, unknown>,
        })),
        packageBytes: pkg.size,
        importedAt: now(),
        wasm: pkg.wasm,
        licenseText: pkg.licenseText,
      };
      const disabledIn =
        existing && widens(existing.permissions, stored.permissions) ? await storage.clearEnablement(m.id) : [];
      await storage.putPlugin(stored);
      const status = !existing ? 'installed' : existing.version === m.version ? 'replaced' : 'updated';
      return { plugin: meta(stored), status, ...(existing ? { previousVersion: existing.version } : {}), disabledIn };
    },

    list: () => storage.listPlugins(),

    async get(id) {
      const p = await storage.getPlugin(id);
      return p && meta(p);
    },

    async enable(workspaceId, pluginId) {
      const plugin = await mustGet(pluginId);
      const names = new Set(plugin.tools.map((t) => t.publicName));
      for (const otherId of await storage.enabledIn(workspaceId)) {
        if (otherId === pluginId) continue;
        const other = await storage.getPlugin(otherId);
        const clash = other?.tools.find((t) => names.has(t.publicName));
        if (clash) {
          throw new HarnessError(
            'E_REGISTRY_TOOL_NAME_CLASH',
            `Tool name ${clash.publicName} is already used by ${otherId} in this workspace. Disable ${otherId} first.`,
            {
              publicName: clash.publicName,
              other: otherId,
            },
          );
        }
      }
      await storage.setEnabled(workspaceId, pluginId, true);
    },

    async disable(workspaceId, pluginId) {
      await storage.setEnabled(workspaceId, pluginId, false);
    },

    async enabledIn(workspaceId) {
      const out: InstalledPlugin[] = [];
      for (const id of await storage.enabledIn(workspaceId)) {
        const p = await storage.getPlugin(id);
        if (p) out.push(meta(p));
      }
      return out;
    },

    async uninstall(pluginId, { deleteData = false } = {}) {
      await mustGet(pluginId);
      await storage.clearEnablement(pluginId);
      await storage.deletePlugin(pluginId);
      if (deleteData) await kv.clear({ pluginId });
    },

    async pin(workspaceId) {
      const plugins: RuntimePlugin[] = [];
      const tools: PinnedTool[] = [];
      for (const id of await storage.enabledIn(workspaceId)) {
        const p = await storage.getPlugin(id);
        if (!p) continue;
        // A private copy of the code: the storage may hand out the same buffer to the next import.
        plugins.push(Object.freeze({ ...toRuntimePlugin(p), wasm: p.wasm.slice() }));
        for (const t of p.tools) {
          tools.push(
            Object.freeze({
              publicName: t.publicName,
              pluginId: p.id,
              pluginVersion: p.version,
              name: t.name,
              description: t.description,
              parameters: t.parameters,
            }),
          );
        }
      }
      const byName = new Map(tools.map((t) => [t.publicName, t]));
      const byId = new Map(plugins.map((p) => [p.id, p]));
      return Object.freeze({
        workspaceId,
        plugins: Object.freeze(plugins),
        tools: Object.freeze(tools),
        resolve(publicName: string) {
          const tool = byName.get(publicName);
          const plugin = tool && byId.get(tool.pluginId);
          return tool && plugin ? { plugin, tool } : undefined;
        },
      });
    },
  };
}
