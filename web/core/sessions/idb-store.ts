// IndexedDB implementation of the SessionStore port (the app). `sessions` holds one record per session with the
// committed pointer `checkpointSeq`; `session_entries` holds the append-only entries keyed [sessionId, seq].
// A commit puts the new entries and moves the pointer in ONE readwrite transaction over both stores: IndexedDB
// commits it whole or not at all, so a closed tab mid-batch leaves the previous checkpoint. Readers still read
// only entries <= checkpointSeq.
import { sessionContentRange } from '../context';
import { HarnessError, toErrorData } from '../contracts';
import type { HarnessDb, SessionRecord } from '../storage';
import { entryProblem, replayEntries } from './replay';
import { checkSessionTitle } from './title';
import {
  SESSION_FORMAT_VERSION,
  type CreateSession,
  type LoadedSession,
  type SessionEntry,
  type SessionInfo,
  type SessionStore,
} from './types';

interface StoredSession extends SessionRecord {
  formatVersion: number;
  forkedFrom?: { sessionId: string; messageIndex: number };
  /**
   * seq of the last committed `reset` entry (a hint: records written before it existed lack it). Replaying from any
   * reset on gives the same history as replaying the whole log, so `load` reads only the entries from here on.
   */
  resetSeq?: number;
}

const toInfo = (r: StoredSession): SessionInfo => {
  const out: SessionInfo = {
    id: r.id,
    workspaceId: r.workspaceId,
    title: r.title,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    checkpointSeq: r.checkpointSeq,
  };
  if (r.forkedFrom) out.forkedFrom = r.forkedFrom;
  return out;
};

/** A refusal to load damaged stored data; nothing is changed, and the way out is named. */
const damaged = (r: StoredSession, problem: string, intact: number) =>
  new HarnessError(
    'E_SESSION_CORRUPT',
    `The session "${r.title}" cannot be loaded: ${problem} (its checkpoint covers entries 0–${r.checkpointSeq}). ${intact > 0 ? `Entries 0–${intact - 1} are intact` : 'No entry is intact'}; nothing was changed or removed. ${intact > 0 ? 'Recover what is intact into a new session (this one stays as it is), or delete' : 'Delete'} this session (other sessions are not affected), or keep it and start a new one.`,
    { id: r.id, intactEntries: intact, checkpointSeq: r.checkpointSeq },
  );

const entryRange = (id: string, from: number, to = Infinity) => IDBKeyRange.bound([id, from], [id, to]);

export function createIdbSessionStore(db: HarnessDb, workspaceId: string): SessionStore {
  function own(record: SessionRecord | undefined, id: string, options: { anyVersion?: boolean } = {}): StoredSession {
    if (!record)
      throw new HarnessError('E_SESSION_NOT_FOUND', `There is no session "${id}" in this workspace.`, { id });
    if (record.workspaceId !== workspaceId) {
      throw new HarnessError(
        'E_SESSION_WORKSPACE_MISMATCH',
        `The session "${id}" belongs to another workspace. Open it from that workspace.`,
        { id },
      );
    }
    const stored = record as StoredSession;
    if (stored.formatVersion !== SESSION_FORMAT_VERSION && !options.anyVersion) {
      throw new HarnessError(
        'E_SESSION_VERSION',
        `The session "${id}" was written in format ${String(stored.formatVersion)}, which this version of i does not read. Reload to update the app, or delete the session.`,
        { id },
      );
    }
    return stored;
  }

  /** The committed entries up to the first missing or invalid one, and the refusal naming it (null: all intact). */
  /**
   * Entries are append-only: once an entry read back valid it stays valid, so each session remembers how many
   * leading entries were checked and later loads check only the new ones (the chat reloads after every step; a
   * full check each time grew with the session, ~30 µs per entry).
   */
  const checked = new Map<string, number>();

  async function scan(
    id: string,
  ): Promise<{ record: StoredSession; entries: SessionEntry[]; damage: HarnessError | null }> {
    const tx = db.transaction(['sessions', 'session_entries']);
    const record = own(await tx.objectStore('sessions').get(id), id);
    const rows =
      record.checkpointSeq < 0
        ? []
        : await tx.objectStore('session_entries').getAll(entryRange(id, 0, record.checkpointSeq));
    await tx.done;
    const entries: SessionEntry[] = [];
    const stop = (problem: string) => ({ record, entries, damage: damaged(record, problem, entries.length) });
    const known = checked.get(id) ?? 0;
    for (const row of rows) {
      if (row.seq !== entries.length) return stop(`entry ${entries.length} is missing`);
      const problem = entries.length < known ? null : entryProblem(row.entry);
      if (problem) return stop(`entry ${entries.length} is not a session entry (${problem})`);
      entries.push(row.entry as SessionEntry);
    }
    if (entries.length !== record.checkpointSeq + 1)
      return stop(`entries ${entries.length}–${record.checkpointSeq} are missing`);
    checked.set(id, entries.length);
    return { record, entries, damage: null };
  }

  /** Entries from `from` on already checked (the tail `load` reads from the last reset), per session. */
  const checkedTail = new Map<string, { from: number; count: number }>();

  /**
   * The history replayed from the last reset, reading only the entries from there on; null when the record has no
   * usable hint or anything there is not as expected (the full scan then loads, or names the damage).
   */
  async function loadFromReset(id: string): Promise<LoadedSession | null> {
    const tx = db.transaction(['sessions', 'session_entries']);
    const record = own(await tx.objectStore('sessions').get(id), id);
    const from = record.resetSeq;
    if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0 || from > record.checkpointSeq) {
      await tx.done;
      return null;
    }
    const rows = await tx.objectStore('session_entries').getAll(entryRange(id, from, record.checkpointSeq));
    await tx.done;
    if (rows.length !== record.checkpointSeq - from + 1) return null;
    const known = checkedTail.get(id);
    const skip = known?.from === from ? known.count : 0;
    const entries: SessionEntry[] = [];
    for (const [i, row] of rows.entries()) {
      if (row.seq !== from + i || (i >= skip && entryProblem(row.entry) !== null)) return null;
      entries.push(row.entry as SessionEntry);
    }
    if (entries[0]?.kind !== 'reset') return null;
    checkedTail.set(id, { from, count: entries.length });
    return { info: toInfo(record), messages: replayEntries(entries) };
  }

  return {
    workspaceId,
    async create(init: CreateSession) {
      checkSessionTitle(init.title);
      const now = Date.now();
      const record: StoredSession = {
        id: init.id ?? crypto.randomUUID(),
        workspaceId,
        title: init.title,
        createdAt: init.createdAt ?? now,
        updatedAt: now,
        checkpointSeq: -1,
        formatVersion: SESSION_FORMAT_VERSION,
      };
      if (init.forkedFrom) record.forkedFrom = init.forkedFrom;
      await db.add('sessions', record).catch((error: unknown) => {
        throw new HarnessError('E_SESSION_EXISTS', `A session "${record.id}" already exists.`, {
          id: record.id,
          reason: String(error),
        });
      });
      return toInfo(record);
    },
    async get(id) {
      const record = await db.get('sessions', id);
      if (!record || record.workspaceId !== workspaceId) return null;
      return toInfo(own(record, id));
    },
    async list() {
      const range = IDBKeyRange.bound([workspaceId, -Infinity], [workspaceId, Infinity]);
      const records = await db.getAllFromIndex('sessions', 'by_workspace', range);
      return records.reverse().map((r) => toInfo(r as StoredSession));
    },
    async load(id) {
      const fast = await loadFromReset(id);
      if (fast) return fast;
      const { record, entries, damage } = await scan(id);
      if (damage) throw damage;
      return { info: toInfo(record), messages: replayEntries(entries) };
    },
    async loadIntact(id) {
      const { record, entries, damage } = await scan(id);
      return { info: toInfo(record), entries, damage: damage ? toErrorData(damage) : null };
    },
    async commit(id, entries, expectedSeq) {
      const tx = db.transaction(['sessions', 'session_entries'], 'readwrite');
      const sessions = tx.objectStore('sessions');
      const rows = tx.objectStore('session_entries');
      try {
        const found = await sessions.get(id);
        if (!found) {
          throw new HarnessError(
            'E_SESSION_GONE',
            `The session "${id}" was deleted (in another tab?) while this turn was saving to it, so this step was not saved. Start a new session to keep going.`,
            { id },
          );
        }
        const record = own(found, id);
        if (record.checkpointSeq !== expectedSeq) {
          throw new HarnessError(
            'E_SESSION_CONFLICT',
            `The session "${id}" was changed elsewhere (another tab?). Reload it and try again.`,
            { id },
          );
        }
        if (entries.length === 0) {
          await tx.done;
          return toInfo(record);
        }
        let seq = record.checkpointSeq;
        // Every request promise gets a handler at once: if a later put throws (e.g. DataCloneError), the abort
        // rejects the earlier ones too, and those rejections are expected, not unhandled.
        const puts: Promise<unknown>[] = [];
        const track = (p: Promise<unknown>) => {
          p.catch(() => undefined);
          puts.push(p);
        };
        let resetSeq = record.resetSeq;
        for (const entry of entries) {
          track(rows.put({ sessionId: id, seq: ++seq, entry }));
          if (entry.kind === 'reset') resetSeq = seq;
        }
        const next: StoredSession = {
          ...record,
          checkpointSeq: seq,
          updatedAt: Date.now(),
          ...(resetSeq !== undefined ? { resetSeq } : {}),
        };
        track(sessions.put(next));
        await Promise.all(puts);
        await tx.done;
        return toInfo(next);
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // already finished
        }
        await tx.done.catch(() => undefined);
        throw error;
      }
    },
    async rename(id, title) {
      checkSessionTitle(title);
      const tx = db.transaction('sessions', 'readwrite');
      const record = own(await tx.store.get(id), id);
      const next = { ...record, title, updatedAt: Date.now() };
      await tx.store.put(next);
      await tx.done;
      return toInfo(next);
    },
    async delete(id) {
      const tx = db.transaction(['sessions', 'session_entries', 'content'], 'readwrite');
      // A session of another format can still be deleted on purpose; another workspace's cannot.
      own(await tx.objectStore('sessions').get(id), id, { anyVersion: true });
      // Its stored tool results (read_result references) go with it, in the same transaction.
      await Promise.all([
        tx.objectStore('sessions').delete(id),
        tx.objectStore('session_entries').delete(entryRange(id, -Infinity)),
        tx.objectStore('content').delete(sessionContentRange(id)),
      ]);
      await tx.done;
      checked.delete(id);
      checkedTail.delete(id);
    },
  };
}
