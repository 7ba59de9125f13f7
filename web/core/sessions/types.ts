// The session store port (ARCHITECTURE.md "Storage"): append-only entries plus a committed-checkpoint pointer
// written in the same transaction. A reader replays entries up to the pointer and ignores anything after it,
// so a crash between appending and moving the pointer keeps the last complete checkpoint.
import type { Message } from '../providers/types';

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
   * Appends `entries` after `expectedSeq` and moves the pointer to the last one, atomically. Fails with
   * E_SESSION_CONFLICT when the pointer is not at `expectedSeq` (another writer committed meanwhile).
   */
  commit(id: string, entries: SessionEntry[], expectedSeq: number): Promise<SessionInfo>;
  rename(id: string, title: string): Promise<SessionInfo>;
  delete(id: string): Promise<void>;
}
