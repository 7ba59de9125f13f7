// MemoryStore over the app database's `memory` object store (seed 000 §3, §9): one record per workspace,
// key [workspaceId, 'memory'], holding the same `{version, entries}` document as the Node file. `update` reads,
// changes and writes in one readwrite transaction, so two tabs cannot lose each other's entries. Deleting a
// workspace deletes the record with everything else keyed by its id.
import type { HarnessDb } from '../../storage';
import { parseMemory, type MemoryData } from './memory-data';
import { checkWorkspaceId, type MemoryStore } from './memory-store';

const RECORD_ID = 'memory';

const source = (workspaceId: string) => `The memory of workspace ${workspaceId} (IndexedDB)`;

function fromRecord(record: Record<string, unknown> | undefined, workspaceId: string): MemoryData {
  if (!record) return parseMemory(undefined);
  const { workspaceId: _w, id: _i, ...doc } = record;
  return parseMemory(doc, source(workspaceId));
}

export function createIdbMemoryStore(db: HarnessDb): MemoryStore {
  return {
    async read(workspaceId) {
      const id = checkWorkspaceId(workspaceId);
      return fromRecord(await db.get('memory', [id, RECORD_ID]), id);
    },
    async update(workspaceId, change) {
      const id = checkWorkspaceId(workspaceId);
      const tx = db.transaction('memory', 'readwrite');
      try {
        const out = change(fromRecord(await tx.store.get([id, RECORD_ID]), id));
        if (out.next) {
          const next = parseMemory(out.next, source(id));
          await tx.store.put({ workspaceId: id, id: RECORD_ID, version: next.version, entries: next.entries });
        }
        await tx.done;
        return out.result;
      } catch (error) {
        // Nothing half-written: a failed change (or a corrupt record) aborts the transaction.
        try {
          tx.abort();
        } catch {
          // already finished
        }
        await tx.done.catch(() => undefined);
        throw error;
      }
    },
  };
}
