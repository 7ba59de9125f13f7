export {
  MEMORY_KEY_PATTERN,
  MEMORY_MAX_ENTRIES,
  MEMORY_MAX_TOTAL_CHARS,
  MEMORY_MAX_VALUE_CHARS,
  MEMORY_VERSION,
  emptyMemory,
  parseMemory,
  type MemoryData,
} from './memory-data';
export { checkWorkspaceId, createInMemoryMemoryStore, type MemoryStore } from './memory-store';
export { applyMemorySet, formatMemory, memoryTools } from './memory-tools';
export { secretKind } from './secret-check';
