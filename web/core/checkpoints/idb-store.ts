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

  /** New contents staged by stageWrite and not yet stored (storeAfter runs alongside the file write). */
  const inFlight = new Map<string, number>();
  // Checkpoints are an undo aid beside the session log: commits need not wait for the disk flush ('relaxed'; they
  // survive a tab or browser crash, not a power loss), which cut a checkpointed write's cost (CONTEXT.md).
  const rw = <N extends 'checkpoint_blobs' | 'checkpoint_records'>(names: N[]) => db.transaction(names, 'readwrite', { durability: 'relaxed' });
  const plain = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());

  /**
   * Appends records (and `blob`, contents to store with them) in ONE read-write transaction, then prunes
   * oldest-first while the workspace's blobs exceed the cap. Every content a record names must be stored by then,
   * or be `staged` (stored next, by storeAfter).
   */
  async function appendMany(inputs: readonly NewRecord[], blob: { sha: string; bytes: Uint8Array } | null, staged?: { sha: string; size: number }) {
    await usedNow();
    const tx = db.transaction(['checkpoint_records', 'checkpoint_blobs'], 'readwrite', { durability: 'relaxed' });
    const records = tx.objectStore('checkpoint_records');
    const blobs = tx.objectStore('checkpoint_blobs');
    const fail = (error: HarnessError) => {
      tx.done.catch(() => undefined);
      tx.abort();
      return error;
    };
    // A blob already stored (the same contents written before) is not put again nor counted twice.
    const newBlob = blob && (await blobs.getKey([workspaceId, blob.sha])) === undefined ? blob : null;
    const stagedNew = staged && !inFlight.has(staged.sha) && staged.sha !== newBlob?.sha && (await blobs.getKey([workspaceId, staged.sha])) === undefined ? staged : null;
    const total = used! + (newBlob?.bytes.byteLength ?? 0) + (stagedNew?.size ?? 0);
    if (newBlob) await blobs.put({ workspaceId, sha: newBlob.sha, size: newBlob.bytes.byteLength, bytes: plain(newBlob.bytes) });
    for (const sha of new Set(inputs.flatMap((r) => [r.before, r.after]))) {
      if (sha === ABSENT || sha === newBlob?.sha || sha === staged?.sha || inFlight.has(sha)) continue;
      if ((await blobs.getKey([workspaceId, sha])) === undefined) {
        throw fail(new HarnessError('E_CHECKPOINT_FAILED', `A checkpoint names contents (${sha.slice(0, 12)}…) that are not stored. Store them with putBlob first.`, { sha }));
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
    if (total > capBytes) {
      const blobSizes = new Map<string, number>();
      let cursor = await blobs.index('by_size').openKeyCursor(ws(0, Infinity));
      while (cursor) {
        blobSizes.set((cursor.primaryKey as [string, string])[1], cursor.key[1]);
        cursor = await cursor.continue();
      }
      for (const [sha, size] of inFlight) blobSizes.set(sha, size);
      if (stagedNew) blobSizes.set(stagedNew.sha, stagedNew.size);
      const all = checked((await records.getAll(ws(-Infinity, Infinity))) as unknown as Array<Record<string, unknown>>);
      const plan = planPrune(all, (_r, sha) => sha, (sha) => blobSizes.get(sha) ?? 0, total, capBytes, added);
      for (const r of plan.drop) await records.delete([workspaceId, r.seq]);
      for (const m of plan.markers) await records.put({ ...m, workspaceId } as never);
      for (const sha of plan.freeBlobs) if (!inFlight.has(sha) && sha !== stagedNew?.sha) await blobs.delete([workspaceId, sha]);
      pruned = plan.pruned;
    }
    await tx.done;
    // Counted once the transaction committed (an aborted one stored nothing).
    used = total - (pruned?.bytes ?? 0);
    if (stagedNew) inFlight.set(stagedNew.sha, stagedNew.size);
    return { records: added, pruned, stagedNew: stagedNew !== null };
  }

  /** Blobs of the workspace (or only `among`) no record names and no write in flight, removed in one transaction. */
  async function sweep(among?: ReadonlySet<string>): Promise<{ blobs: number; bytes: number }> {
    const tx = rw(['checkpoint_records', 'checkpoint_blobs']);
    const named = new Set<string>();
    for (const row of (await tx.objectStore('checkpoint_records').getAll(ws(-Infinity, Infinity))) as unknown as CheckpointRecord[]) {
      named.add(row.before);
      named.add(row.after);
    }
    const blobs = tx.objectStore('checkpoint_blobs');
    let n = 0;
    let bytes = 0;
    let cursor = await blobs.index('by_size').openKeyCursor(ws(0, Infinity));
    const drop: Array<[string, number]> = [];
    while (cursor) {
      const sha = (cursor.primaryKey as [string, string])[1];
      if (!named.has(sha) && !inFlight.has(sha) && (!among || among.has(sha))) drop.push([sha, cursor.key[1]]);
      cursor = await cursor.continue();
    }
    for (const [sha, size] of drop) {
      await blobs.delete([workspaceId, sha]);
      n++;
      bytes += size;
    }
    await tx.done;
    if (used !== null) used -= bytes;
    return { blobs: n, bytes };
  }

  const store: CheckpointStore = {
    capBytes,
    sha256: sha256Hex,
    async putBlob(_session, bytes, known) {
      const sha = known ?? (await sha256Hex(bytes));
      await usedNow();
      // Usually stored already (a write's "before" is the previous write's "after"): a read-only look is cheaper
      // than a read-write transaction. A put racing in between is harmless (same key, same bytes).
      if (inFlight.has(sha) || (await db.getKey('checkpoint_blobs', [workspaceId, sha])) !== undefined) return sha;
      const tx = rw(['checkpoint_blobs']);
      const stored = await tx.objectStore('checkpoint_blobs').getKey([workspaceId, sha]);
      if (stored === undefined) await tx.objectStore('checkpoint_blobs').put({ workspaceId, sha, size: bytes.byteLength, bytes: plain(bytes) });
      await tx.done;
      if (stored === undefined) used! += bytes.byteLength;
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
    async stageWrite(input, before, after) {
      // The prior contents and the record in one transaction, before the file changes; the new contents are counted
      // now and stored by storeAfter (its own transaction, alongside the file write).
      const beforeBlob = before && input.before !== ABSENT ? { sha: input.before, bytes: before } : null;
      const staged = after && input.after !== ABSENT ? { sha: input.after, size: after.byteLength } : undefined;
      const { records, pruned, stagedNew } = await appendMany([input], beforeBlob, staged);
      const record = records[0]!;
      let written: Promise<void> | null = null;
      const storeAfter = async () => {
        try {
          const tx = rw(['checkpoint_blobs']);
          await tx.objectStore('checkpoint_blobs').put({ workspaceId, sha: record.after, size: after!.byteLength, bytes: plain(after!) });
          await tx.done;
        } catch (error) {
          used! -= after!.byteLength;
          throw error;
        } finally {
          inFlight.delete(record.after);
        }
      };
      return {
        record,
        pruned,
        storeAfter: () => (written ??= stagedNew ? storeAfter() : Promise.resolve()),
        async cancel() {
          await written?.catch(() => undefined);
          const tx = rw(['checkpoint_records']);
          await tx.objectStore('checkpoint_records').delete([workspaceId, record.seq]);
          await tx.done;
          // Contents only this record named are orphans now (a workspace-wide sweep could take contents another
          // tab stored a moment ago for a record it is about to write).
          await sweep(new Set([record.before, record.after]));
        },
      };
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
    sweepOrphans: () => sweep(),
    async dropSession(session) {
      const tx = rw(['checkpoint_records']);
      const index = tx.objectStore('checkpoint_records').index('by_session');
      let cursor = await index.openKeyCursor(IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]));
      while (cursor) {
        await tx.objectStore('checkpoint_records').delete(cursor.primaryKey);
        cursor = await cursor.continue();
      }
      await tx.done;
      // Contents are shared by the workspace's sessions: only those no remaining record names go.
      return sweep();
    },
  };
  return store;
}
