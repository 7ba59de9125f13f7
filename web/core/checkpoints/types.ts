// The checkpoint store port and its records (issue 16). A record says what one mediated write did to one file:
// the state before and after, each a SHA-256 of the bytes (kept once in a content-addressed blob table) or
// 'absent' (the file did not exist). Two stores implement the port: IndexedDB in the app (idb-store.ts) and the
// session folder headless (node-store.ts); both join store-suite.ts.

/** Lower-case hex SHA-256 of a file's bytes, or 'absent' when no file was there. */
export type FileState = string;
export const ABSENT = 'absent';

/**
 * - 'write': a tool changed the file (built-in write/edit, plugin fs.write, any writer through the recorder);
 * - 'revert': a revert (or a redo: the undo of a revert) put the file back; `group` names the operation;
 * - 'turn': a marker that a turn started (no file); turns are numbered from these, so a turn that changed nothing
 *   still has its number.
 */
export type CheckpointKind = 'write' | 'revert' | 'turn';

export interface CheckpointRecord {
  /** Order of records in one workspace, assigned by the store (0, 1, 2, …). */
  seq: number;
  kind: CheckpointKind;
  session: string;
  /** 1-based turn of the session. For 'revert' records: the turn the revert asked for (its `from`). */
  turn: number;
  /** Model call of the turn (1-based); 0 for reverts and markers. */
  step: number;
  /** The model's tool call id; for reverts the operation's group id. */
  callId: string;
  /** Tool name ('write', 'edit', a plugin's public name); 'revert' / 'redo' for reverts. */
  tool: string;
  /** Normalised workspace-relative path ('' for markers). */
  path: string;
  before: FileState;
  after: FileState;
  /** Sizes in bytes of the before / after contents (null when absent). */
  beforeBytes: number | null;
  afterBytes: number | null;
  /** Milliseconds since the epoch. */
  at: number;
  /** Revert records: the operation id; every record of one revert shares it. */
  group?: string;
  /** Revert records: the seqs of the 'write' (or earlier revert) records this one undid. */
  covers?: number[];
  /** Redo records: the group of the revert this one undid. */
  undoes?: string;
  /** Turn markers: some of the turn's records were pruned, so reverting to before it is refused. */
  pruned?: true;
}

/** A record as the recorder hands it in; the store assigns `seq`. */
export type NewRecord = Omit<CheckpointRecord, 'seq'>;

/** What a size-capped store dropped to make room, oldest first. Never silent: the caller shows it. */
export interface Pruned {
  /** How many records were dropped, and their sessions and turns. */
  records: number;
  sessions: string[];
  /** The newest turn dropped per session: files changed at or before it can no longer be reverted. */
  throughTurn: Record<string, number>;
  /** Bytes freed (blobs no longer referenced). */
  bytes: number;
}

export interface AppendResult {
  record: CheckpointRecord;
  /** Null when nothing had to go. */
  pruned: Pruned | null;
}

/**
 * A write's record stored before the file changes (write-ahead): the prior and the new contents are in the store and
 * the record names them, so a crash between the file write and anything after it never loses the prior state.
 */
export interface StagedWrite {
  record: CheckpointRecord;
  pruned: Pruned | null;
  /**
   * Settles when the new contents are stored, for a store that writes them while the file write goes on (the session
   * folder); absent when they were stored with the record. A failure leaves the record (the prior state is safe) and
   * only the view of the new contents missing.
   */
  stored?: Promise<void>;
  /** The file write failed: the record goes, and contents only it named (orphans now) are removed. */
  cancel(): Promise<void>;
}

export interface CheckpointStore {
  /** The cap on blob bytes for the whole workspace (every session). */
  readonly capBytes: number;
  /** Lower-case hex SHA-256 of `bytes`, with the fastest digest the host has. */
  sha256(bytes: Uint8Array): Promise<string>;
  /**
   * Keeps `bytes` under their SHA-256 (stored once: a second put of the same contents writes nothing) and returns
   * the hash. `sha`: the hash the caller computed from these very bytes (saves hashing twice). Blobs no record
   * refers to are removed by pruning and `sweepOrphans`.
   */
  putBlob(session: string, bytes: Uint8Array, sha?: string): Promise<string>;
  /** The bytes of a hash a record of `session` names, or null when pruned or lost. Checked against the hash. */
  getBlob(session: string, sha: string): Promise<Uint8Array | null>;
  /** Appends one record, then prunes oldest-first while the workspace's blobs exceed the cap. */
  append(record: NewRecord): Promise<AppendResult>;
  /** Appends several records in one write (a revert of many files), then prunes like `append`. */
  appendMany(records: readonly NewRecord[]): Promise<{ records: CheckpointRecord[]; pruned: Pruned | null }>;
  /**
   * Before a mediated write: `record` (its `before`/`after` are the hashes of `before`/`after`, or 'absent' with
   * null) with both contents, each stored unless held, in one store write (IndexedDB: one transaction).
   */
  stageWrite(record: NewRecord, before: Uint8Array | null, after: Uint8Array | null): Promise<StagedWrite>;
  /** The highest turn a marker of `session` names (0: none yet); cheap, for numbering the next turn. */
  lastTurn(session: string): Promise<number>;
  /** Records of one session in seq order (all sessions when omitted). */
  list(session?: string): Promise<CheckpointRecord[]>;
  /** Bytes of blobs held for the workspace. */
  usedBytes(): Promise<number>;
  /**
   * Removes stored contents no record names (stored for a write that then failed, left by a crash between storing
   * and recording, or by a deleted session's records): how many blobs and bytes went. Headless, `session` limits it
   * to that session's folder (another process may be writing another session); IndexedDB holds the contents of all
   * sessions in one table and sweeps the workspace. Run it between turns, never while a revert is under way.
   */
  sweepOrphans(session?: string): Promise<{ blobs: number; bytes: number }>;
  /** Deletes every record of `session` (the session was deleted) and the contents no other record names. */
  dropSession(session: string): Promise<{ blobs: number; bytes: number }>;
}

/** Default cap: 256 MiB of file contents per workspace (32 files at the 8 MiB write limit). */
export const DEFAULT_CAP_BYTES = 256 * 1024 * 1024;
