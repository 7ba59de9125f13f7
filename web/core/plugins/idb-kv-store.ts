// The plugins' KV port over the app's IndexedDB (store `plugin_kv`, key [workspaceId, pluginId, key]). A scope is
// a key-prefix range of real array keys, never a concatenated string, so no key a plugin chooses reaches another
// plugin's or another workspace's records. The quota is enforced above this port (plugin-host host-ops, KV_QUOTA).
import type { KvScope, KvStore, KvUsage } from '../../../plugin-host';
import type { HarnessDb } from '../storage';

const encoder = new TextEncoder();
// ignoreBOM: what the plugin stored comes back byte for byte (a stored value never starts with one, JSON.stringify output
// starts with a JSON token, but no decoder of plugin data strips bytes).
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const scopeRange = ({ workspaceId, pluginId }: KvScope) =>
  IDBKeyRange.bound([workspaceId, pluginId], [workspaceId, pluginId, []]);

export class IdbKvStore implements KvStore {
  constructor(private readonly db: HarnessDb) {}

  async get({ workspaceId, pluginId }: KvScope, key: string): Promise<string | undefined> {
    const record = await this.db.get('plugin_kv', [workspaceId, pluginId, key]);
    return record ? decoder.decode(record.value) : undefined;
  }

  async put({ workspaceId, pluginId }: KvScope, key: string, json: string): Promise<void> {
    await this.db.put('plugin_kv', { workspaceId, pluginId, key, value: encoder.encode(json) });
  }

  async delete({ workspaceId, pluginId }: KvScope, key: string): Promise<void> {
    await this.db.delete('plugin_kv', [workspaceId, pluginId, key]);
  }

  async usage(scope: KvScope): Promise<KvUsage> {
    let entries = 0;
    let bytes = 0;
    const tx = this.db.transaction('plugin_kv', 'readonly');
    for (let cursor = await tx.store.openCursor(scopeRange(scope)); cursor; cursor = await cursor.continue()) {
      entries++;
      bytes += encoder.encode(cursor.value.key).length + cursor.value.value.byteLength;
    }
    await tx.done;
    return { entries, bytes };
  }

  async clear({ pluginId, workspaceId }: { pluginId: string; workspaceId?: string }): Promise<void> {
    if (workspaceId !== undefined) {
      await this.db.delete('plugin_kv', scopeRange({ workspaceId, pluginId }));
      return;
    }
    const tx = this.db.transaction('plugin_kv', 'readwrite');
    for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
      if (cursor.value.pluginId === pluginId) await cursor.delete();
    }
    await tx.done;
  }

  /** Number of records a plugin has in all workspaces: what the uninstall confirmation tells the person. */
  async countOf(pluginId: string): Promise<number> {
    let n = 0;
    const tx = this.db.transaction('plugin_kv', 'readonly');
    for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue())
      if (cursor.value.pluginId === pluginId) n++;
    await tx.done;
    return n;
  }
}
