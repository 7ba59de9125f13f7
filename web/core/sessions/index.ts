// Public face of web/core/sessions (browser-safe): the store port, the IndexedDB store, checkpoints, transfer.
// The Node file store is exported from web/core/node.ts.
export { SESSION_FORMAT_VERSION } from './types';
export type { SessionEntry, SessionInfo, SessionStore, LoadedSession, CreateSession, IntactSession } from './types';
export { replayEntries } from './replay';
export { foldedMessages } from './folded';
export { historyProblems, isConsistent, assertValidHistory } from './validate-history';
export {
  recoverSession,
  recoveredTitle,
  consistentLength,
  RECOVERED_TITLE_SUFFIX,
  type RecoveredSession,
} from './recover';
export { createCheckpointSink } from './checkpoint-sink';
export { createIdbSessionStore } from './idb-store';
export {
  exportSession,
  importSession,
  forkSession,
  sessionToMarkdown,
  SESSION_EXPORT_FORMAT,
  type SessionExport,
} from './transfer';
