// The script a test gives the model server: one turn per model request, in order.
import type { FilesOptions, FilesStore, StoredFile } from './files';
export type { FilesOptions, StoredFile };

export type WireProtocol = 'openai' | 'deepseek' | 'anthropic' | 'responses';

export interface ScriptToolCall {
  /** Defaults to `call_<n>` (Chat/Responses call_id) or `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  /** Raw JSON text as the model would stream it, or an object to serialise. */
  arguments: string | Record<string, unknown>;
}

export interface ScriptTurn {
  /** Checks the request; a throw is answered with 500 `{error:{message}}` and kept in `failures`. */
  expect?: (request: RecordedRequest) => void;
  text?: string;
  /** Thinking text (Chat: reasoning_content; Anthropic: a signed thinking block; Responses: a reasoning summary). */
  thinking?: string;
  toolCalls?: ScriptToolCall[];
  /** 'length' answers as cut off by the output cap (Responses: status incomplete). */
  finish?: 'stop' | 'length';
  /** `cached`: input tokens read from the prompt cache (part of `input`; Chat: prompt_tokens_details, DeepSeek: hit/miss). */
  usage?: { input: number; output: number; cached?: number };
  /** Answer with this HTTP error instead (body defaults to the protocol's error shape). */
  error?: { status: number; message?: string; body?: unknown; headers?: Record<string, string> };
  /** Answer 307 to this location. */
  redirect?: string;
  /** Delay before answering and between stream chunks. */
  delayMs?: number;
  chunkDelayMs?: number;
  /** Send the first stream chunk, then keep the connection open without finishing (abort tests). */
  hang?: boolean;
  /** Answer with exactly these bytes. */
  raw?: { status?: number; contentType: string; body: string | Uint8Array; headers?: Record<string, string> };
}

export interface RecordedRequest {
  method: string;
  path: string;
  protocol: WireProtocol | null;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: string;
  body: Record<string, unknown> | undefined;
}

/** A listed model with the fields its server adds, such as `context_length` or `max_model_len`. */
export interface ListedModelEntry {
  id: string;
  [field: string]: unknown;
}

export interface ModelServerOptions {
  /** Turns in order, or a function choosing the turn for each request (0-based index). */
  script: ScriptTurn[] | ((request: RecordedRequest, index: number) => ScriptTurn);
  /**
   * Models answered on `GET /v1/models` and `GET /models` (OpenAI or Anthropic list shape); absent: 404. An object
   * lists its id with extra fields as a server would, e.g. `{id, context_length}` (OpenRouter, vLLM).
   */
  models?: (string | ListedModelEntry)[];
  /** Defaults to 0 (a random free port). */
  port?: number;
  /** Answer the Files endpoints (files.ts) in each vendor's shape; absent: they are ordinary unknown paths. */
  files?: FilesOptions;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` — base_url for anthropic and deepseek; add `/v1` for openai and responses. */
  url: string;
  /** base_url per protocol, following each vendor's SDK convention. */
  baseUrl(protocol: WireProtocol): string;
  /** Every model request received, in order (CORS preflights are not included). */
  requests: RecordedRequest[];
  /** Errors thrown by `expect` checks. */
  failures: Error[];
  /** The Files store when `files` was given: uploads so far, the live files, and `expire(id)`. */
  files: FilesStore | null;
  close(): Promise<void>;
}

/** One answer the encoders produce: JSON or SSE frames. */
export type Answer = { kind: 'json'; status: number; body: unknown } | { kind: 'sse'; frames: string[] };
