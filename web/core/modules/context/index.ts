export {
  contextMessagesToAppend,
  desiredItems,
  knownContext,
  snapshotMessage,
  snapshotToRestore,
  type ContextItems,
  type ContextMeta,
  type ContextState,
  type SkillListing,
} from './context-injector';
