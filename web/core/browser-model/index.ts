// The in-browser model (issue 21): llama.cpp in WebAssembly through @wllama/wllama. The page imports only this
// face (store, header checks, status); the engine and the stream are imported lazily by the app agent.
export { readGgufHeader, SUPPORTED_ARCHITECTURES, type GgufHeader } from './gguf';
export {
  defaultContextWindow,
  estimateMemory,
  memoryAvailable,
  checkFits,
  formatBytes,
  FALLBACK_CONTEXT,
  WASM_MEMORY_LIMIT,
  type MemoryEstimate,
} from './memory';
export {
  deleteStoredModel,
  downloadModel,
  importModelFile,
  listStoredModels,
  nameFromUrl,
  openStoredModel,
  partialDownloads,
  type PartialDownload,
  type StoredModel,
} from './model-store';
export { watchStatus, type BrowserModelStatus } from './status';
export { SUGGESTED_MODELS, SUGGESTED_MODELS_DATE, type SuggestedModel } from './suggested-models';
