// The session store port (ARCHITECTURE.md "Storage"): append-only entries plus a committed-checkpoint pointer
// written in the same transaction. A reader replays entries up to the pointer and ignores anything after it,
// so a crash between appending and moving the pointer keeps the last complete checkpoint.
import type { ErrorData } from '../contracts';
import type { Message } from '../contracts';

/** Version of the stored entry and export shapes; bump with a migration when they change. */
export const SESSION_FORMAT_VERSION = 1;

/**
 * `message` appends one message; `reset` replaces the whole history (compaction, a rewriting hook, an import).
 * Appending only new entries keeps a checkpoint's cost independent of the session's length.
 */
export type SessionEntry = { kind: 'message'; message: Message } | { kind: 'reset'; messages: Message[] };

export interface SessionInfo {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** seq of the last committed entry; -1 when nothing is committed. */
  checkpointSeq: number;
  forkedFrom?: { sessionId: string; messageIndex: number };
}

export interface LoadedSession {
  info: SessionInfo;
  messages: Message[];
}

/** What of a session reads back whole: `load` refuses a damaged session, this never does for damage. */
export interface IntactSession {
  info: SessionInfo;
  /** Committed entries 0..n-1 that passed every check, stopping before the first damaged or missing one. */
  entries: SessionEntry[];
  /** The E_SESSION_CORRUPT refusal `load` gives for this session, or null when every committed entry is intact. */
  damage: ErrorData | null;
}

export interface CreateSession {
  title: string;
  /** Store-specific id: a UUID in IndexedDB, the validated --session-name on disk. Generated when absent. */
  id?: string;
  forkedFrom?: { sessionId: string; messageIndex: number };
  /** Keeps the original creation time (an import); now when absent. */
  createdAt?: number;
}

/** One workspace's sessions. Every method refuses a session that belongs to another workspace. */
export interface SessionStore {
  readonly workspaceId: string;
  create(init: CreateSession): Promise<SessionInfo>;
  get(id: string): Promise<SessionInfo | null>;
  list(): Promise<SessionInfo[]>;
  /** Replays the entries up to the committed pointer. */
  load(id: string): Promise<LoadedSession>;
  /**
   * Reads the entries that are intact, up to the first damaged one, without changing anything (salvage of a
   * session that `load` refuses with E_SESSION_CORRUPT). Other refusals (not found, another workspace, a newer
   * format, a damaged checkpoint record) are thrown as by `load`.
   */
  loadIntact(id: string): Promise<IntactSession>;
  /**
   * Appends `entries` after `expectedSeq` and moves the pointer to the last one, atomically. Fails with
   * E_SESSION_CONFLICT when the pointer is not at `expectedSeq` (another writer committed meanwhile).
   */
  commit(id: string, entries: SessionEntry[], expectedSeq: number): Promise<SessionInfo>;
  rename(id: string, title: string): Promise<SessionInfo>;
  delete(id: string): Promise<void>;
}
