// The checkpoint store of the app: two stores of the one IndexedDB database (web/core/storage, v3).
//   checkpoint_blobs   [workspaceId, sha] → {size, bytes}: one copy per content in the workspace, whatever the session;
//   checkpoint_records [workspaceId, seq] → a CheckpointRecord; index by_session [workspaceId, session, seq].
// The bytes used are summed once from the by_size index (keys only, no bytes read), then kept in memory; another
// tab writing the same workspace makes that figure a little low until the next load, so the cap is approximate
// across tabs. An append and its pruning run in one transaction: IndexedDB commits them whole or not at all.
import { HarnessError } from '../errors';
import type { HarnessDb } from '../storage';
import { sha256Hex } from './hash';
import { planPrune } from './prune';
import { recordProblem } from './validate';
import { ABSENT, DEFAULT_CAP_BYTES, type CheckpointRecord, type CheckpointStore } from './types';

export interface IdbCheckpointStoreOptions {
  capBytes?: number;
}

const strip = (row: Record<string, unknown>): CheckpointRecord => {
  const { workspaceId: _ws, ...rest } = row;
  return rest as unknown as CheckpointRecord;
};

export function createIdbCheckpointStore(db: HarnessDb, workspaceId: string, options: IdbCheckpointStoreOptions = {}): CheckpointStore {
  const capBytes = options.capBytes ?? DEFAULT_CAP_BYTES;
  const ws = (from: number | string, to: number | string) => IDBKeyRange.bound([workspaceId, from], [workspaceId, to]);
  let used: number | null = null;

  async function sizes(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let cursor = await db.transaction('checkpoint_blobs').store.index('by_size').openKeyCursor(ws(0, Infinity));
    while (cursor) {
      out.set((cursor.primaryKey as [string, string])[1], cursor.key[1]);
      cursor = await cursor.continue();
    }
    return out;
  }

  async function usedNow(): Promise<number> {
    if (used === null) {
      let n = 0;
      for (const size of (await sizes()).values()) n += size;
      used = n;
    }
    return used;
  }

  const checked = (rows: Array<Record<string, unknown>>): CheckpointRecord[] =>
    rows.map((row) => {
      const problem = recordProblem(strip(row));
      if (problem) {
        throw new HarnessError('E_CHECKPOINT_CORRUPT', `A stored checkpoint of this workspace is damaged (${problem}). Nothing was changed. Clear this workspace's checkpoints to start afresh (earlier changes can then no longer be reverted).`, { seq: row.seq });
      }
      return strip(row);
    });

  const store: CheckpointStore = {
    capBytes,
    async putBlob(_session, bytes) {
      const sha = await sha256Hex(bytes);
      await usedNow();
      const tx = db.transaction('checkpoint_blobs', 'readwrite');
      const known = await tx.store.getKey([workspaceId, sha]);
      if (known === undefined) {
        await tx.store.put({ workspaceId, sha, size: bytes.byteLength, bytes: bytes.slice() });
        used! += bytes.byteLength;
      }
      await tx.done;
      return sha;
    },
    async getBlob(_session, sha) {
      const row = await db.get('checkpoint_blobs', [workspaceId, sha]);
      if (!row) return null;
      const bytes = row.bytes instanceof Uint8Array ? row.bytes : new Uint8Array(row.bytes as ArrayBuffer);
      return (await sha256Hex(bytes)) === sha ? bytes : null;
    },
    async append(input) {
      const { records, pruned } = await store.appendMany([input]);
      return { record: records[0]!, pruned };
    },
    async appendMany(inputs) {
      const total = await usedNow();
      const over = total > capBytes;
      const blobSizes = over ? await sizes() : null;
      const tx = db.transaction(['checkpoint_records', 'checkpoint_blobs'], 'readwrite');
      const records = tx.objectStore('checkpoint_records');
      const blobs = tx.objectStore('checkpoint_blobs');
      for (const sha of new Set(inputs.flatMap((r) => [r.before, r.after]))) {
        if (sha !== ABSENT && (await blobs.getKey([workspaceId, sha])) === undefined) {
          tx.done.catch(() => undefined);
          tx.abort();
          throw new HarnessError('E_CHECKPOINT_FAILED', `A checkpoint names contents (${sha.slice(0, 12)}…) that are not stored. Store them with putBlob first.`, { sha });
        }
      }
      const last = await records.openCursor(ws(-Infinity, Infinity), 'prev');
      let seq = last ? (last.value.seq as number) + 1 : 0;
      const added: CheckpointRecord[] = [];
      for (const input of inputs) {
        const record: CheckpointRecord = { ...input, seq: seq++ };
        await records.put({ ...record, workspaceId } as never);
        added.push(record);
      }
      let pruned = null;
      if (over) {
        const all = checked((await records.getAll(ws(-Infinity, Infinity))) as unknown as Array<Record<string, unknown>>);
        const plan = planPrune(all, (_r, sha) => sha, (sha) => blobSizes!.get(sha) ?? 0, total, capBytes, added);
        for (const r of plan.drop) await records.delete([workspaceId, r.seq]);
        for (const m of plan.markers) await records.put({ ...m, workspaceId } as never);
        for (const sha of plan.freeBlobs) await blobs.delete([workspaceId, sha]);
        pruned = plan.pruned;
        if (pruned) used = total - pruned.bytes;
      }
      await tx.done;
      return { records: added, pruned };
    },
    async list(session) {
      const rows =
        session === undefined
          ? await db.getAll('checkpoint_records', ws(-Infinity, Infinity))
          : await db.getAllFromIndex('checkpoint_records', 'by_session', IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]));
      return checked(rows as unknown as Array<Record<string, unknown>>);
    },
    usedBytes: usedNow,
  };
  return store;
}
