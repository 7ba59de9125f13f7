// The host's provider contract (seed 003 `provider_prepare` / `provider_parse` v1) and the internal, chat-shaped
// conversation model every adapter maps to and from. Provider-specific replay state rides on top-level `_`
// fields of an assistant message (seed 000 §7: `_anthropic_content`, `_responses_output`) and is never converted
// across providers.

import type { ErrorData } from './errors';
import type { StepUsage } from './usage';

// ---------------------------------------------------------------------------------------------- conversation

export interface TextPart {
  type: 'text';
  text: string;
}

/** Images travel as base64 data URLs (PNG/JPEG/GIF/WebP), the only form seed 000 §5 accepts. */
export interface ImagePart {
  type: 'image_url';
  image_url: { url: string };
  /** Set only on the copy of history the core prepares when this image was uploaded (provider Files); never stored. */
  file_id?: string;
}

export type ContentPart = TextPart | ImagePart;

export interface ToolCall {
  id: string;
  type: 'function';
  /** `arguments` is the raw JSON string exactly as the model produced it (DeepSeek replays it verbatim). */
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
  /** Host metadata (not sent to the model), e.g. `{kind: 'tool_images', tool_call_id}` or workspace content marks. */
  _meta?: Record<string, unknown>;
  /** The id of the turn this prompt started (its undo marker carries the same id); host data, never sent. */
  _turn?: string;
  /**
   * The turn of this prompt failed before anything answered it (a 401, the network): the error, saved with the
   * prompt so a reload still shows both and offers Retry. Host data, never sent.
   */
  _failed?: ErrorData;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
  /** DeepSeek (and compatible) thinking text, kept and replayed. */
  reasoning_content?: string;
  /** Anthropic: the original assistant content blocks (thinking + signature, redacted_thinking, tool_use). */
  _anthropic_content?: unknown[];
  /** OpenAI Responses: every output item (reasoning with encrypted_content, message, function_call). */
  _responses_output?: unknown[];
  /**
   * Which protocol/model produced this message; replay state is only reused by the same protocol. `tool_protocol`: 'json' when the step ran under the JSON action protocol (absent: native);
   * `json_reply`: that answer's reply text as the model wrote it, replayed as is on later JSON requests.
   */
  _provider?: { protocol: string; model: string; tool_protocol?: 'json'; json_reply?: string };
  /** The person stopped the turn while this answer streamed: `content` is the text so far; `thinking` is kept for display only. */
  _stopped?: { thinking?: string };
  /** What this model call used and how long it took (issue 15); host data, never sent to a provider. */
  _usage?: StepUsage;
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
  /** True when the tool failed or was refused: the content is the error text. */
  _error?: boolean;
  /**
   * The tool's whole output when `content` (what the model saw) is a bounded view: a preview plus a reference
   * (seed 002). The session log keeps it so the person can always read the full result; never sent to a provider.
   */
  _full_output?: string;
  /** Who allowed or refused the call ('free', 'auto', 'rule', 'person', …) and the approval rule when one decided. */
  _approval?: { by: string; rule?: { decision: string; tool: string; path?: string; scope: string; index: number } };
  /** The tool ran in another process (i-bridge, MCP): what it changed on disk is not in the undo history. */
  _outside_undo?: true;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Public tool schema sent to the model: name, description, object parameters. Never exec/cwd. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------- seed 003 v1

/** `provider_prepare` input (seed 003 "NDJSON 合约 v1"). Carries no credential. */
export interface PrepareInput {
  version: 1;
  protocol: string;
  base_url: string;
  model: string;
  history: Message[];
  max_tokens: number;
  /** True when this request produces a compaction summary. */
  compact: boolean;
  tools: ToolSchema[];
  /** Tools that come from plugins (same shape; kept apart as the seed does). */
  plugin_tools: ToolSchema[];
  use_max_tokens: boolean;
  extra_body: Record<string, unknown>;
  /** Ask for an SSE stream. Custom providers behind the bridge may ignore it and answer with plain JSON. */
  stream: boolean;
}

export interface AuthSpec {
  /** HTTP header name (a valid token) that carries the key, e.g. `authorization` or `x-api-key`. */
  header: string;
  /** Prefix before the key, e.g. `Bearer `; '' for none. */
  prefix: string;
}

/** `provider_prepare` output. The core checks `url` is same-origin with base_url before attaching the key. */
export interface PreparedRequest {
  version: 1;
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  auth: AuthSpec | null;
  /** Said by a core wrapper while preparing (provider Files: uploads that fell back to base64); never sent. */
  notices?: ProviderNotice[];
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'incomplete' | 'error' | (string & {});

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
}

/** `provider_parse` output: the host's chat-shaped response. */
export interface ParsedResponse {
  version: 1;
  response: {
    choices: Array<{ finish_reason: FinishReason; message: AssistantMessage }>;
    usage?: Usage;
    /** The provider's raw usage object, for cache/budget policies that understand it. */
    raw_usage?: unknown;
  };
}

// ---------------------------------------------------------------------------------------------- stream events

/**
 * One event union per model stream (STYLE.md §4): start/delta/end per block with an index, exactly one terminal
 * `done` or `error`. Once a stream function is called it never throws: failures arrive as `error`.
 */
export type StreamEvent =
  | { type: 'start'; protocol: string; model: string }
  | { type: 'text-start'; index: number }
  | { type: 'text-delta'; index: number; delta: string }
  | { type: 'text-end'; index: number }
  | { type: 'thinking-start'; index: number }
  | { type: 'thinking-delta'; index: number; delta: string }
  | { type: 'thinking-end'; index: number }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; delta: string }
  | { type: 'tool-call-end'; index: number }
  | { type: 'usage'; usage: Usage }
  | {
      type: 'retry';
      /** The attempt about to be made (2 = the first retry) and the most there will be. */
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      /** When the retry is sent (epoch ms, `Date.now()` clock): a screen in another thread counts down to it. */
      retryAt: number;
      /** `code: message` of the failure being retried. */
      reason: string;
      /** The failure's code (`E_RATE_LIMITED`, `E_PROVIDER_HTTP`, `E_NETWORK`…) and HTTP status when one answered. */
      code: string;
      status?: number;
    }
  | { type: 'done'; result: ModelResult }
  | { type: 'error'; error: ErrorData; result?: ModelResult };

/** What a finished model call yields: the raw provider JSON (reassembled from the stream) and its parse. */
export interface ModelResult {
  /** The provider's complete response JSON, what `after_response` and `provider_parse` receive. */
  raw: unknown;
  parsed: ParsedResponse;
  /** The prepared request actually sent (headers without credentials). */
  request: { url: string; body: Record<string, unknown> };
  attempts: number;
  /** Things the person should know about this call, e.g. that a protocol switch made replay lossy. */
  notices?: ProviderNotice[];
}

/** A non-fatal message about a model call (stable `N_*` code + a sentence). */
export interface ProviderNotice {
  code: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------- hooks seam

/** Request metadata that travels with hooks and never reaches the model (seed 000 §6). */
export type RequestMeta = Record<string, unknown>;

/**
 * The three transport hooks of seed 000 §6, supplied by the agent's hook pipeline.
 * Contract: each returns full data (not a patch); a thrown error fails the request without retry.
 */
export interface TransportHooks {
  /** `before_request`: may change same-origin URL and body; a changed origin is refused by the core. */
  beforeRequest?(data: {
    url: string;
    body: Record<string, unknown>;
    protocol: string;
    model: string;
    request_meta: RequestMeta;
  }): Promise<{ url: string; body: Record<string, unknown>; request_meta: RequestMeta }>;
  /** `request_retry`: notification before each physical retry; its return value never changes the request. */
  requestRetry?(data: { request_meta: RequestMeta; attempt: number; reason: string }): Promise<void>;
  /** `after_response`: sees the raw response JSON before `provider_parse`; returns it (possibly adjusted). */
  afterResponse?(data: { response: unknown; request_meta: RequestMeta }): Promise<{ response: unknown }>;
}

/** A provider adapter: pure mapping between the host model and one wire API. Never sees credentials. */
export interface ProviderAdapter {
  readonly protocol: string;
  prepare(input: PrepareInput): PreparedRequest | Promise<PreparedRequest>;
  parse(raw: unknown): ParsedResponse | Promise<ParsedResponse>;
  /** Streaming decoder: SSE events in, stream events out, and the reassembled raw response at the end. */
  createStreamDecoder?(): StreamDecoder;
  /**
   * Seed 003 extra operations (custom workers): a prepare that may answer with an operation plan first. The core
   * runs it (provider-files `withOperationPlans`, only under provider_operations) and calls again with the result.
   */
  prepareStep?(input: PrepareStepInput): Promise<PreparedRequest | OperationPlan>;
}

export interface StreamDecoder {
  /** One SSE event (`event` name if any, `data` text). Returns the stream events it produced. */
  push(sse: { event?: string; data: string }): StreamEvent[];
  /** The byte stream ended: closes blocks still open (a stream cut before its final event). */
  end?(): StreamEvent[];
  /** End of stream: the complete raw response JSON as the non-streaming API would have returned it. */
  finish(): unknown;
}

// ---- Provider operations (files, uploads, cleanup) ----
// Seed 003 "附加操作合约": besides the model request, a provider's prepare may ask the core for extra same-origin
// requests (a multipart upload, a list, a delete). The provider only describes them; the core checks origin and
// headers, attaches the key, sends, and hands back what came back. Pure data, shared by the vendor Files adapters
// (this folder) and the executor (web/core/provider-files).

export type OperationMethod = 'GET' | 'POST' | 'DELETE';

/** One extra request as a provider describes it. Never carries a credential. */
export interface ProviderOperation {
  method: OperationMethod;
  /** Absolute URL; must share base_url's origin. */
  url: string;
  /** Plain headers; routing/transport headers (content-type included) are refused: the type goes in `content_type`. */
  headers: Record<string, string>;
  auth: AuthSpec | null;
  /** POST only: the body's media type, e.g. `multipart/form-data; boundary=…`. */
  content_type?: string;
  /** POST only: the full raw body (GET and DELETE send none). */
  body?: Uint8Array;
  /** A DELETE a trusted worker marks as cleanup of its own uploads (runs unattended only under provider_cleanup). */
  cleanup?: boolean;
}

/** What the core hands back to the provider after one operation (`operation_result`). */
export interface OperationResult {
  status: number;
  /** Parsed JSON when the answer was JSON, else the text. */
  body: unknown;
}

/** A file as the vendor's Files API describes it, normalised. Times are epoch milliseconds. */
export interface RemoteFile {
  file_id: string;
  bytes: number | null;
  created_at: number | null;
  /** null: the vendor keeps it until deleted. */
  expires_at: number | null;
  filename: string | null;
}

/** One page of a vendor's file list. */
export interface ListPage {
  files: RemoteFile[];
  /** The vendor says more files follow. */
  hasMore: boolean;
  /** The cursor of the next page (its `after`); null when none follows or the vendor gave no cursor. */
  next: string | null;
}

/** The Files API of one vendor, as pure request builders and answer readers. */
export interface VendorFiles {
  /** The protocol selector this belongs to. */
  protocol: string;
  upload(args: {
    baseUrl: string;
    bytes: Uint8Array;
    mediaType: string;
    filename: string;
    expiresAfterSeconds: number | null;
    boundary: string;
  }): ProviderOperation;
  /** One page of the list, from the start (`after` null) or after the file id of the previous page's cursor. */
  list(baseUrl: string, after: string | null): ProviderOperation;
  get(baseUrl: string, fileId: string): ProviderOperation;
  remove(baseUrl: string, fileId: string): ProviderOperation;
  /** Reads an upload/get answer; throws E_PROVIDER_FILES_RESPONSE when it is not the documented shape. */
  readFile(body: unknown): RemoteFile;
  /** Reads one list page; `next` is the cursor of the following page, null when this was the last. */
  readList(body: unknown): ListPage;
  /** Headers the model request needs once it references an uploaded file (Anthropic's beta header). */
  modelHeaders: Record<string, string>;
  /** True when a failed model request says a referenced file does not exist (expired or deleted remotely). */
  isFileNotFound(status: number, providerMessage: string): boolean;
}

/** `provider_prepare` input when it continues after an operation: what came back, and the state it asked to keep. */
export type PrepareStepInput = PrepareInput & { operation_result?: OperationResult; state?: unknown };

/** A `provider_prepare` answer that asks the core for an operation first (seed 003 附加操作合约). */
export interface OperationPlan {
  version: 1;
  operation: ProviderOperation;
  /** Returned as is with the operation's result on the next prepare call. */
  state: unknown;
}
