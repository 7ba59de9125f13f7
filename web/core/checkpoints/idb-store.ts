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
import { ABSENT, DEFAULT_CAP_BYTES, type CheckpointRecord, type CheckpointStore, type NewRecord } from './types';

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

  /**
   * Appends records (and, for a write, its new contents `blob`) in ONE read-write transaction, then prunes
   * oldest-first while the workspace's blobs exceed the cap. Every content a record names must be stored by then.
   */
  async function appendMany(inputs: readonly NewRecord[], blob: { sha: string; bytes: Uint8Array } | null) {
    await usedNow();
    // A blob already stored (the same contents written before) is not put again nor counted twice.
    const newBlob = blob && (await db.getKey('checkpoint_blobs', [workspaceId, blob.sha])) === undefined ? blob : null;
    const total = used! + (newBlob?.bytes.byteLength ?? 0);
    const over = total > capBytes;
    const blobSizes = over ? await sizes() : null;
    if (blobSizes && newBlob) blobSizes.set(newBlob.sha, newBlob.bytes.byteLength);
    const tx = db.transaction(['checkpoint_records', 'checkpoint_blobs'], 'readwrite');
    const records = tx.objectStore('checkpoint_records');
    const blobs = tx.objectStore('checkpoint_blobs');
    if (newBlob) await blobs.put({ workspaceId, sha: newBlob.sha, size: newBlob.bytes.byteLength, bytes: newBlob.bytes.slice() });
    for (const sha of new Set(inputs.flatMap((r) => [r.before, r.after]))) {
      if (sha !== ABSENT && sha !== newBlob?.sha && (await blobs.getKey([workspaceId, sha])) === undefined) {
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
    }
    await tx.done;
    // Counted once the transaction committed (an aborted one stored nothing).
    used = total - (pruned?.bytes ?? 0);
    return { records: added, pruned };
  }

  const store: CheckpointStore = {
    capBytes,
    async putBlob(_session, bytes) {
      const sha = await sha256Hex(bytes);
      await usedNow();
      // Usually stored already (a write's "before" is the previous write's "after"): a read-only look is cheaper
      // than a read-write transaction. A put racing in between is harmless (same key, same bytes).
      if ((await db.getKey('checkpoint_blobs', [workspaceId, sha])) !== undefined) return sha;
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
    async appendWrite(input, after) {
      const sha = after === null ? ABSENT : await sha256Hex(after);
      const { records, pruned } = await appendMany([{ ...input, after: sha, afterBytes: after === null ? null : after.byteLength }], after === null ? null : { sha, bytes: after });
      return { record: records[0]!, pruned };
    },
    appendMany: (inputs) => appendMany(inputs, null),
    async lastTurn(session) {
      // Markers are appended in turn order: the newest marker, found walking back from the session's last record,
      // names the highest turn (reverts after it name lower ones). Not a read of the whole session.
      let cursor = await db.transaction('checkpoint_records').store.index('by_session').openCursor(IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]), 'prev');
      while (cursor) {
        const row = cursor.value as unknown as CheckpointRecord;
        if (row.kind === 'turn') return row.turn;
        cursor = await cursor.continue();
      }
      return 0;
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
