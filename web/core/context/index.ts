// Public face of web/core/context: the content store (bounded, scoped, expiring references to full tool output),
// bounded tool-result views, and the read_result tool that pages through a stored result (seed 002).
export {
  checkRef,
  checkStoreConfig,
  sameRef,
  type ContentPage,
  type ContentRef,
  type ContentScope,
  type ContentStore,
  type ContentStoreConfig,
} from './content-store';
export { createMemoryContentStore, page } from './memory-content-store';
export { createIdbContentStore } from './idb-content-store';
export { createIdbSessionContentStore, sessionContentRange } from './idb-session-content-store';
export {
  BoundedResultPolicy,
  DEFAULT_KEEP_WHOLE_BYTES,
  DEFAULT_PREVIEW_BYTES,
  projectToolResult,
  renderResultView,
  type OutputView,
  type ProjectOptions,
  type ResultDecision,
  type ToolOutcome,
  type ToolResultPolicy,
  type ToolResultView,
} from './result-policy';
export { decodeRef, encodeRef } from './ref-token';
export { READ_RESULT_TOOL, createReadResultTool, type ReadResultToolOptions } from './read-result-tool';
export { floorCharBoundary, isCharBoundary, utf8Length, utf8Prefix } from './utf8';
