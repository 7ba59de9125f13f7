// The private KV port of plugins: values are stored as JSON text under (workspaceId, pluginId, key), so one plugin
// cannot reach another's data, nor its own data of another workspace, by guessing keys. The quota (limits.ts
// KV_QUOTA) is enforced by the host operations above this port, so every implementation (memory here, files in
// node-kv-store.ts, IndexedDB in web/core) behaves alike.

export interface KvScope {
  workspaceId: string;
  pluginId: string;
}

export interface KvUsage {
  entries: number;
  /** Sum of UTF-8 key bytes + value bytes. */
  bytes: number;
}

export interface KvStore {
  /** The stored JSON text, or undefined when the key is absent. */
  get(scope: KvScope, key: string): Promise<string | undefined>;
  put(scope: KvScope, key: string, json: string): Promise<void>;
  delete(scope: KvScope, key: string): Promise<void>;
  usage(scope: KvScope): Promise<KvUsage>;
  /** Removes a plugin's data: in one workspace, or in all of them when workspaceId is omitted (uninstall). */
  clear(target: { pluginId: string; workspaceId?: string }): Promise<void>;
}

const bytesOf = (s: string) => new TextEncoder().encode(s).length;

/** Scopes are kept in separate maps; the composite key is never a concatenation a key could forge. */
export class MemoryKvStore implements KvStore {
  private readonly scopes = new Map<string, Map<string, Map<string, string>>>();

  private scope({ workspaceId, pluginId }: KvScope, create: boolean): Map<string, string> | undefined {
    let byPlugin = this.scopes.get(workspaceId);
    if (!byPlugin) {
      if (!create) return undefined;
      byPlugin = new Map();
      this.scopes.set(workspaceId, byPlugin);
    }
    let entries = byPlugin.get(pluginId);
    if (!entries && create) {
      entries = new Map();
      byPlugin.set(pluginId, entries);
    }
    return entries;
  }

  async get(scope: KvScope, key: string): Promise<string | undefined> {
    return this.scope(scope, false)?.get(key);
  }

  async put(scope: KvScope, key: string, json: string): Promise<void> {
    this.scope(scope, true)!.set(key, json);
  }

  async delete(scope: KvScope, key: string): Promise<void> {
    this.scope(scope, false)?.delete(key);
  }

  async usage(scope: KvScope): Promise<KvUsage> {
    return usageOf(this.scope(scope, false) ?? new Map());
  }

  async clear({ pluginId, workspaceId }: { pluginId: string; workspaceId?: string }): Promise<void> {
    for (const [ws, byPlugin] of this.scopes) {
      if (workspaceId === undefined || ws === workspaceId) byPlugin.delete(pluginId);
    }
  }
}

export function usageOf(entries: Iterable<[string, string]>): KvUsage {
  let count = 0;
  let bytes = 0;
  for (const [k, v] of entries) {
    count++;
    bytes += bytesOf(k) + bytesOf(v);
  }
  return { entries: count, bytes };
}
