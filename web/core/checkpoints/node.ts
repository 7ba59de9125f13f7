// Node-only face of web/core/checkpoints: the session-folder store of headless `i`, and the recorder of what a command
// changes in a real folder (a shadow git repository, issue 31).
export { createNodeCheckpointStore, type NodeCheckpointStoreOptions } from './node-store';
export {
  COMMAND_LIMITS,
  createCommandRecorder,
  E_CHECKPOINT_COMMAND_UNTRACKED,
  type CommandChangesOptions,
  type CommandLimits,
  type CommandRecorder,
} from './command-changes';
