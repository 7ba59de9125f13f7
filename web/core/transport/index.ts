// Public face of the transport: model calls, connection test, and the rules it enforces.
export { streamModel, callModel, isModelFailure } from './stream-model';
export type { ModelCallOptions, ModelFailure, ModelOutcome, TransportPorts } from './stream-model';
export type { BridgeEndpoint } from './route';
export { MAX_BODY_BYTES } from './limits';
export { DEFAULT_RETRY } from './retry-policy';
export type { RetryPolicy } from './retry-policy';
export { FORBIDDEN_HEADERS, isHttpToken } from './headers';
export type { ModelResult, StreamEvent } from '../providers';
export {
  findServerContextWindow,
  listProviderModelDetails,
  listProviderModels,
  parseModelList,
  parseModelListing,
  parseOllamaShow,
  MAX_LISTED_WINDOW,
  MODEL_LIST_MAX_BYTES,
  MODEL_LIST_MAX_MODELS,
  MODEL_LIST_TIMEOUT_MS,
} from './list-models';
export type { FoundContextWindow, ListedModel, ListModelsOptions, ServerKind } from './list-models';
export { streamCall, transportStream, type TransportStreamOptions } from './stream-call';
export { boundedChunks } from './body-reader';
export { checkAuthSpec, checkHeaders, checkSecretValue } from './headers';
export { checkSameOrigin } from './origin';
