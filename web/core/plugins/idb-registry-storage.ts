// The plugin registry's storage port over the app's IndexedDB (stores `plugins` and `plugin_enablement`). The
// `plugins` store is keyed [pluginId, version], but the registry keeps one installed version per id: `putPlugin`
// deletes every other version of that id in the same transaction, so a crash never leaves two or none.
import type { InstalledPlugin, RegistryStorage, StoredPlugin } from '../../../plugin-host';
import type { HarnessDb } from '../storage';

/** What one `plugins` record holds besides its key fields. */
interface PluginPayload {
  meta: InstalledPlugin;
  wasm: Uint8Array;
  licenseText: string;
}

const idRange = (pluginId: string) => IDBKeyRange.bound([pluginId], [pluginId, []]);

function fromRecord(record: Record<string, unknown> | undefined): StoredPlugin | undefined {
  if (!record) return undefined;
  const { meta, wasm, licenseText } = record as unknown as PluginPayload;
  return { ...meta, wasm: new Uint8Array(wasm), licenseText };
}

export class IdbRegistryStorage implements RegistryStorage {
  constructor(private readonly db: HarnessDb) {}

  async getPlugin(id: string): Promise<StoredPlugin | undefined> {
    const records = await this.db.getAll('plugins', idRange(id));
    return fromRecord(records[0]);
  }

  async putPlugin(plugin: StoredPlugin): Promise<void> {
    const { wasm, licenseText, ...meta } = plugin;
    const tx = this.db.transaction('plugins', 'readwrite');
    await tx.store.delete(idRange(plugin.id));
    await tx.store.put({
      pluginId: plugin.id,
      version: plugin.version,
      sha256: plugin.sha256,
      meta,
      wasm: wasm.slice(),
      licenseText,
    });
    await tx.done;
  }

  async deletePlugin(id: string): Promise<void> {
    await this.db.delete('plugins', idRange(id));
  }

  async listPlugins(): Promise<InstalledPlugin[]> {
    // Values include the wasm bytes; a registry holds a handful of plugins, so reading them whole is fine.
    const records = await this.db.getAll('plugins');
    return records
      .map((r) => (r as unknown as PluginPayload).meta)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async enabledIn(workspaceId: string): Promise<string[]> {
    const records = await this.db.getAll('plugin_enablement', IDBKeyRange.bound([workspaceId], [workspaceId, []]));
    return records
      .filter((r) => r.enabled)
      .map((r) => r.pluginId)
      .sort();
  }

  async setEnabled(workspaceId: string, pluginId: string, enabled: boolean): Promise<void> {
    if (enabled) await this.db.put('plugin_enablement', { workspaceId, pluginId, enabled: true });
    else await this.db.delete('plugin_enablement', [workspaceId, pluginId]);
  }

  async clearEnablement(pluginId: string): Promise<string[]> {
    const tx = this.db.transaction('plugin_enablement', 'readwrite');
    const was: string[] = [];
    for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
      if (cursor.value.pluginId !== pluginId) continue;
      if (cursor.value.enabled) was.push(cursor.value.workspaceId);
      await cursor.delete();
    }
    await tx.done;
    return was.sort();
  }
}
