// Node MemoryStore (seed 000 §3): `<data_dir>/workspaces/<id>/memory.json`, changed under the registry-file lock
// and written atomically (plugin-host json-file-store). Node-only: exported from web/core/modules/node.ts.
import { join } from 'node:path';
import { readJsonFile, updateJsonFile } from '../../../../plugin-host/fs/node';
import { parseMemory } from './memory-data';
import { checkWorkspaceId, type MemoryStore } from './memory-store';

export function memoryFilePath(dataDir: string, workspaceId: string): string {
  return join(dataDir, 'workspaces', checkWorkspaceId(workspaceId), 'memory.json');
}

export function createNodeMemoryStore(options: { dataDir: string; lockTimeoutMs?: number }): MemoryStore {
  const fileOptions = options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs };
  return {
    async read(workspaceId) {
      const file = memoryFilePath(options.dataDir, workspaceId);
      return parseMemory(await readJsonFile(file, fileOptions), file);
    },
    async update(workspaceId, change) {
      const file = memoryFilePath(options.dataDir, workspaceId);
      return updateJsonFile(
        file,
        (current) => {
          const out = change(parseMemory(current, file));
          return out.next ? { value: parseMemory(out.next, file), result: out.result } : { result: out.result };
        },
        fileOptions,
      );
    },
  };
}
