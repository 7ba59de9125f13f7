// Public face of the provider layer: contract types, built-in adapters, presets and pure helpers.
export type {
  AssistantMessage,
  AuthSpec,
  ContentPart,
  FinishReason,
  ImagePart,
  ListPage,
  Message,
  ModelResult,
  OperationMethod,
  OperationPlan,
  OperationResult,
  ParsedResponse,
  PrepareInput,
  PrepareStepInput,
  PreparedRequest,
  ProviderAdapter,
  ProviderNotice,
  ProviderOperation,
  RemoteFile,
  RequestMeta,
  StreamDecoder,
  StreamEvent,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  ToolSchema,
  TransportHooks,
  Usage,
  UserMessage,
  VendorFiles,
} from '../contracts';
export { builtinAdapter, isBuiltinProtocol, BUILTIN_PROTOCOLS, DEFAULT_PROTOCOL } from './registry';
export type { BuiltinProtocol } from './registry';
export {
  openaiChatAdapter,
  deepseekAdapter,
  createChatAdapter,
  OPENAI_CHAT_FLAGS,
  DEEPSEEK_FLAGS,
} from './openai-chat';
export type { ChatFlags } from './openai-chat';
export { anthropicAdapter, ANTHROPIC_VERSION } from './anthropic-messages';
export { responsesAdapter } from './openai-responses';
export { validateExtraBody, RESERVED_EXTRA_BODY_FIELDS } from './extra-body';
export { replayNotice, answerDanglingToolCalls, ownsReplayState, MISSING_TOOL_RESULT } from './history';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason';
export { PROVIDER_PRESETS, findPreset } from './presets';
export { MODEL_WINDOW_TABLES, presetContextWindow, type ModelWindowTable } from './model-windows';
export type { ProviderPreset, Route } from './presets';
export { openaiFiles } from './files-openai';
export { anthropicFiles, ANTHROPIC_FILES_BETA } from './files-anthropic';
export { multipartBody } from './multipart';
export { splitDataUrl } from './data-url';
