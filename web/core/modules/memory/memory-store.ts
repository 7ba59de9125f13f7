// The MemoryStore port: one memory per workspace id. Implementations: `createInMemoryMemoryStore` (tests, private
// sessions), the Node file store in node-memory-store.ts (`<data_dir>/workspaces/<id>/memory.json`, locked and
// atomic); the app wires IndexedDB. `update` runs read-modify-write as one step so concurrent writers cannot
// lose each other's entries.
import { HarnessError } from '../../contracts';
import { emptyMemory, parseMemory, type MemoryData } from './memory-data';

export interface MemoryStore {
  read(workspaceId: string): Promise<MemoryData>;
  /** Calls `change` with the current memory; writes `next` when returned. Returns `result`. */
  update<T>(workspaceId: string, change: (current: MemoryData) => { next?: MemoryData; result: T }): Promise<T>;
}

/** Workspace ids become folder names in file stores: only UUID-like tokens are accepted. */
export function checkWorkspaceId(id: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(id)) {
    throw new HarnessError(
      'E_MEMORY_WORKSPACE_ID',
      `The workspace id ${JSON.stringify(id.slice(0, 80))} is not valid for the memory store. Use the workspace's UUID.`,
    );
  }
  return id;
}

export function createInMemoryMemoryStore(): MemoryStore {
  const data = new Map<string, MemoryData>();
  const clone = (m: MemoryData): MemoryData => ({ version: m.version, entries: { ...m.entries } });
  let chain: Promise<unknown> = Promise.resolve();
  return {
    async read(workspaceId) {
      return clone(data.get(checkWorkspaceId(workspaceId)) ?? emptyMemory());
    },
    update(workspaceId, change) {
      const run = chain.then(() => {
        const id = checkWorkspaceId(workspaceId);
        const out = change(clone(data.get(id) ?? emptyMemory()));
        if (out.next) data.set(id, parseMemory(clone(out.next)));
        return out.result;
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
