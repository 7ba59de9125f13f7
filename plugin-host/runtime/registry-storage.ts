// The storage port of the plugin registry. The app wires an IndexedDB implementation (web/core); Node tests and
// `hplugin` use the in-memory one below. Contract for implementations:
// - `putPlugin` replaces the record of that id atomically (one installed version per plugin id);
// - records come back with the exact wasm bytes that were put (the runtime re-checks nothing but the sha256 key);
// - enablement is a set of (workspaceId, pluginId) pairs, independent of versions: an update keeps it unless the
//   registry removes it (it does when permissions widen).

import type { PluginPermissions } from './host-ops';

export interface InstalledTool {
  /** Local name from the manifest: what the plugin matches on. */
  name: string;
  /** Derived public name (tool-names.ts): what the model sees. */
  publicName: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * What Settings → Plugins shows. The sha256 proves the code is the one that was packed (integrity), not who
 * published it: it is not a signature.
 */
export interface InstalledPlugin {
  id: string;
  name: string;
  version: string;
  sha256: string;
  permissions: PluginPermissions;
  tools: InstalledTool[];
  /** Size of the package file in bytes. */
  packageBytes: number;
  /** Milliseconds since the epoch. */
  importedAt: number;
}

export interface StoredPlugin extends InstalledPlugin {
  wasm: Uint8Array;
  licenseText: string;
}

export interface RegistryStorage {
  getPlugin(id: string): Promise<StoredPlugin | undefined>;
  putPlugin(plugin: StoredPlugin): Promise<void>;
  deletePlugin(id: string): Promise<void>;
  listPlugins(): Promise<InstalledPlugin[]>;
  /** Plugin ids enabled in a workspace. */
  enabledIn(workspaceId: string): Promise<string[]>;
  setEnabled(workspaceId: string, pluginId: string, enabled: boolean): Promise<void>;
  /** Removes a plugin's enablement everywhere; returns the workspaces it was enabled in. */
  clearEnablement(pluginId: string): Promise<string[]>;
}

export class MemoryRegistryStorage implements RegistryStorage {
  private readonly plugins = new Map<string, StoredPlugin>();
  private readonly enabled = new Map<string, Set<string>>();

  async getPlugin(id: string): Promise<StoredPlugin | undefined> {
    return this.plugins.get(id);
  }

  async putPlugin(plugin: StoredPlugin): Promise<void> {
    this.plugins.set(plugin.id, plugin);
  }

  async deletePlugin(id: string): Promise<void> {
    this.plugins.delete(id);
  }

  async listPlugins(): Promise<InstalledPlugin[]> {
    return [...this.plugins.values()]
      .map(({ wasm: _w, licenseText: _l, ...meta }) => meta)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async enabledIn(workspaceId: string): Promise<string[]> {
    return [...(this.enabled.get(workspaceId) ?? [])].sort();
  }

  async setEnabled(workspaceId: string, pluginId: string, on: boolean): Promise<void> {
    let set = this.enabled.get(workspaceId);
    if (!set) this.enabled.set(workspaceId, (set = new Set()));
    if (on) set.add(pluginId);
    else set.delete(pluginId);
  }

  async clearEnablement(pluginId: string): Promise<string[]> {
    const was: string[] = [];
    for (const [ws, set] of this.enabled) if (set.delete(pluginId)) was.push(ws);
    return was.sort();
  }
}
