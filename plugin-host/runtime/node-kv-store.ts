// File-backed KvStore for `hplugin run --storage DIR` (Node only). One JSON file per (workspace, plugin):
// DIR/kv/<sha256(workspaceId) first 32 hex>/<pluginId>.json, replaced atomically (temp file + rename), so a crash
// leaves the old or the new content. Entries are kept as [key, json] pairs: keys never become object properties.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError, quoteUntrusted } from '../errors';
import { usageOf, type KvScope, type KvStore, type KvUsage } from './kv-store';

const PLUGIN_ID = /^[a-z][a-z0-9.-]{0,63}$/;

interface KvFile {
  format: 1;
  workspaceId: string;
  pluginId: string;
  entries: [string, string][];
}

export class FileKvStore implements KvStore {
  constructor(private readonly dir: string) {}

  private workspaceDir(workspaceId: string): string {
    return join(this.dir, 'kv', createHash('sha256').update(workspaceId).digest('hex').slice(0, 32));
  }

  private file({ workspaceId, pluginId }: KvScope): string {
    if (!PLUGIN_ID.test(pluginId))
      throw new HarnessError(
        'E_HOST_KV_KEY',
        `${quoteUntrusted(pluginId, 80)} is not a plugin id. Plugin ids are lower-case letters, digits, "." and "-".`,
      );
    return join(this.workspaceDir(workspaceId), `${pluginId}.json`);
  }

  private async load(scope: KvScope): Promise<Map<string, string>> {
    let text: string;
    try {
      text = await readFile(this.file(scope), 'utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return new Map();
      throw e;
    }
    const data = JSON.parse(text) as KvFile;
    if (
      data.format !== 1 ||
      data.workspaceId !== scope.workspaceId ||
      data.pluginId !== scope.pluginId ||
      !Array.isArray(data.entries)
    ) {
      throw new HarnessError(
        'E_HOST_FAILED',
        `The KV file ${this.file(scope)} is not a format-1 store of this workspace and plugin. Move it away and run again.`,
      );
    }
    return new Map(data.entries);
  }

  private async save(scope: KvScope, entries: Map<string, string>): Promise<void> {
    const path = this.file(scope);
    await mkdir(this.workspaceDir(scope.workspaceId), { recursive: true });
    const body: KvFile = { format: 1, workspaceId: scope.workspaceId, pluginId: scope.pluginId, entries: [...entries] };
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(tmp, JSON.stringify(body), { mode: 0o600 });
    await rename(tmp, path);
  }

  async get(scope: KvScope, key: string): Promise<string | undefined> {
    return (await this.load(scope)).get(key);
  }

  async put(scope: KvScope, key: string, json: string): Promise<void> {
    const entries = await this.load(scope);
    entries.set(key, json);
    await this.save(scope, entries);
  }

  async delete(scope: KvScope, key: string): Promise<void> {
    const entries = await this.load(scope);
    if (entries.delete(key)) await this.save(scope, entries);
  }

  async usage(scope: KvScope): Promise<KvUsage> {
    return usageOf(await this.load(scope));
  }

  async clear({ pluginId, workspaceId }: { pluginId: string; workspaceId?: string }): Promise<void> {
    const dirs =
      workspaceId !== undefined
        ? [this.workspaceDir(workspaceId)]
        : await readdir(join(this.dir, 'kv')).then(
            (names) => names.map((n) => join(this.dir, 'kv', n)),
            () => [],
          );
    for (const d of dirs) await rm(join(d, `${pluginId}.json`), { force: true });
  }
}
