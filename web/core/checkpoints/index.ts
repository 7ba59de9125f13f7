// Public face of web/core/checkpoints (issue 16): undo of every file write the core mediates. The IndexedDB store
// is here; the session-folder store of headless `i` and the recorder of what a command changes (a shadow git index)
// are Node-only (./node.ts).
export * from './types';
export { createIdbCheckpointStore, type IdbCheckpointStoreOptions } from './idb-store';
export {
  nextTurn,
  startTurnCheckpoints,
  type CheckpointEvent,
  type TurnCheckpointOptions,
  type TurnCheckpoints,
} from './recorder';
export {
  currentState,
  revertFile,
  revertSince,
  revertTurn,
  undoRevert,
  type RevertContext,
  type RevertedFile,
  type RevertResult,
} from './revert';
export { activeGroups, changesOf, revertedSeqs, type ChangeRow, type RevertRow } from './changes';
export { sha256Hex } from './hash';
