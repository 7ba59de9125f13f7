// The checkpoint store of the app: two stores of the one IndexedDB database (web/core/storage, v3).
//   checkpoint_blobs   [workspaceId, sha] → {size, bytes}: one copy per content in the workspace, whatever the session;
//   checkpoint_records [workspaceId, seq] → a CheckpointRecord; index by_session [workspaceId, session, seq].
// The bytes used are summed once from the by_size index (keys only, no bytes read), then kept in memory; another
// tab writing the same workspace makes that figure a little low until the next load, so the cap is approximate
// across tabs. An append and its pruning run in one transaction: IndexedDB commits them whole or not at all.
import { HarnessError } from '../contracts';
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

export function createIdbCheckpointStore(
  db: HarnessDb,
  workspaceId: string,
  options: IdbCheckpointStoreOptions = {},
): CheckpointStore {
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
        throw new HarnessError(
          'E_CHECKPOINT_CORRUPT',
          `A stored checkpoint of this workspace is damaged (${problem}). Nothing was changed. Clear this workspace's checkpoints to start afresh (earlier changes can then no longer be reverted).`,
          { seq: row.seq },
        );
      }
      return strip(row);
    });

  // Checkpoints are an undo aid beside the session log: commits need not wait for the disk flush ('relaxed'; they
  // survive a tab or browser crash, not a power loss), which cut a checkpointed write's cost (CONTEXT.md).
  const rw = <N extends 'checkpoint_blobs' | 'checkpoint_records'>(names: N[]) =>
    db.transaction(names, 'readwrite', { durability: 'relaxed' });
  const plain = (bytes: Uint8Array) =>
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();

  /**
   * Appends records (and `put`, contents to store with them) in ONE read-write transaction, then prunes
   * oldest-first while the workspace's blobs exceed the cap. Every content a record names must be stored by then.
   * The lookups go out together and the writes are not awaited one by one: each awaited request is a round trip to
   * the browser's storage process.
   */
  async function appendMany(inputs: readonly NewRecord[], put: ReadonlyArray<{ sha: string; bytes: Uint8Array }> = []) {
    await usedNow();
    const tx = rw(['checkpoint_records', 'checkpoint_blobs']);
    const records = tx.objectStore('checkpoint_records');
    const blobs = tx.objectStore('checkpoint_blobs');
    const offered = new Map(put.map((b) => [b.sha, b.bytes]));
    const named = [...new Set([...offered.keys(), ...inputs.flatMap((r) => [r.before, r.after])])].filter(
      (sha) => sha !== ABSENT,
    );
    const [known, last] = await Promise.all([
      Promise.all(named.map((sha) => blobs.getKey([workspaceId, sha]))),
      records.openKeyCursor(ws(-Infinity, Infinity), 'prev'),
    ]);
    const writes: Array<Promise<unknown>> = [];
    let added = 0;
    for (const [i, sha] of named.entries()) {
      if (known[i] !== undefined) continue;
      const bytes = offered.get(sha);
      if (!bytes) {
        tx.done.catch(() => undefined);
        tx.abort();
        throw new HarnessError(
          'E_CHECKPOINT_FAILED',
          `A checkpoint names contents (${sha.slice(0, 12)}…) that are not stored. Store them with putBlob first.`,
          { sha },
        );
      }
      // A blob already stored (the same contents written before) is not put again nor counted twice.
      writes.push(blobs.put({ workspaceId, sha, size: bytes.byteLength, bytes: plain(bytes) }));
      added += bytes.byteLength;
    }
    let seq = last ? (last.primaryKey as [string, number])[1] + 1 : 0;
    const out: CheckpointRecord[] = [];
    for (const input of inputs) {
      const record: CheckpointRecord = { ...input, seq: seq++ };
      writes.push(records.put({ ...record, workspaceId } as never));
      out.push(record);
    }
    await Promise.all(writes);
    const total = used! + added;
    let pruned = null;
    if (total > capBytes) {
      const blobSizes = new Map<string, number>();
      let cursor = await blobs.index('by_size').openKeyCursor(ws(0, Infinity));
      while (cursor) {
        blobSizes.set((cursor.primaryKey as [string, string])[1], cursor.key[1]);
        cursor = await cursor.continue();
      }
      const all = checked((await records.getAll(ws(-Infinity, Infinity))) as unknown as Array<Record<string, unknown>>);
      const plan = planPrune(
        all,
        (_r, sha) => sha,
        (sha) => blobSizes.get(sha) ?? 0,
        total,
        capBytes,
        out,
      );
      for (const r of plan.drop) await records.delete([workspaceId, r.seq]);
      for (const m of plan.markers) await records.put({ ...m, workspaceId } as never);
      for (const sha of plan.freeBlobs) await blobs.delete([workspaceId, sha]);
      pruned = plan.pruned;
    }
    await tx.done;
    // Counted once the transaction committed (an aborted one stored nothing).
    used = total - (pruned?.bytes ?? 0);
    return { records: out, pruned };
  }

  /** Blobs of the workspace (or only `among`) no record names, removed in one transaction. */
  async function sweep(among?: ReadonlySet<string>): Promise<{ blobs: number; bytes: number }> {
    const tx = rw(['checkpoint_records', 'checkpoint_blobs']);
    const named = new Set<string>();
    for (const row of (await tx
      .objectStore('checkpoint_records')
      .getAll(ws(-Infinity, Infinity))) as unknown as CheckpointRecord[]) {
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
      if (!named.has(sha) && (!among || among.has(sha))) drop.push([sha, cursor.key[1]]);
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
      if ((await db.getKey('checkpoint_blobs', [workspaceId, sha])) !== undefined) return sha;
      const tx = rw(['checkpoint_blobs']);
      const stored = await tx.objectStore('checkpoint_blobs').getKey([workspaceId, sha]);
      if (stored === undefined)
        await tx.objectStore('checkpoint_blobs').put({ workspaceId, sha, size: bytes.byteLength, bytes: plain(bytes) });
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
      // Prior contents, new contents and the record in one transaction, before the file changes.
      const put = [
        ...(before && input.before !== ABSENT ? [{ sha: input.before, bytes: before }] : []),
        ...(after && input.after !== ABSENT ? [{ sha: input.after, bytes: after }] : []),
      ];
      const { records, pruned } = await appendMany([input], put);
      const record = records[0]!;
      return {
        record,
        pruned,
        async cancel() {
          const tx = rw(['checkpoint_records']);
          await tx.objectStore('checkpoint_records').delete([workspaceId, record.seq]);
          await tx.done;
          // Contents only this record named are orphans now (a workspace-wide sweep could take contents another
          // tab stored a moment ago for a record it is about to write).
          await sweep(new Set([record.before, record.after]));
        },
      };
    },
    appendMany: (inputs) => appendMany(inputs),
    async lastTurn(session) {
      // Markers are appended in turn order: the newest marker, found walking back from the session's last record,
      // names the highest turn (reverts after it name lower ones). Not a read of the whole session.
      let cursor = await db
        .transaction('checkpoint_records')
        .store.index('by_session')
        .openCursor(IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]), 'prev');
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
          : await db.getAllFromIndex(
              'checkpoint_records',
              'by_session',
              IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]),
            );
      return checked(rows as unknown as Array<Record<string, unknown>>);
    },
    usedBytes: usedNow,
    sweepOrphans: () => sweep(),
    async dropSession(session) {
      const tx = rw(['checkpoint_records']);
      const index = tx.objectStore('checkpoint_records').index('by_session');
      let cursor = await index.openKeyCursor(
        IDBKeyRange.bound([workspaceId, session, -Infinity], [workspaceId, session, Infinity]),
      );
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
