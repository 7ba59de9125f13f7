// The model stream the loop is handed, and where its checkpoints go: ports that the agent, the transport, the
// in-browser model, provider files and the session store all meet at.
import type { Message, PrepareInput, RequestMeta, StreamEvent, TransportHooks } from './messages';

/** One model call as the loop hands it to the transport. */
export interface ModelCall {
  input: PrepareInput;
  /** The pipeline's before_request / request_retry / after_response, bound for this call. */
  hooks: TransportHooks;
  requestMeta: RequestMeta;
  signal: AbortSignal;
}

/** The injected model stream. Contract: never throws once called; ends with exactly one `done` or `error`. */
export type StreamFn = (call: ModelCall) => AsyncIterable<StreamEvent>;

/** Where checkpoints go (sessions/checkpoint-sink.ts adapts a SessionStore). */
export interface CheckpointSink {
  /** Shown to `before_save` / `after_save` as `path`. */
  readonly path: string;
  /** Persists `messages` as the new committed checkpoint (append-only + pointer move). */
  save(messages: Message[]): Promise<void>;
}
