// The in-browser model engine (issue 21): one loaded GGUF in @wllama/wllama (llama.cpp compiled to WebAssembly).
// wllama runs llama.cpp in its own module Worker (a blob: URL, allowed by `worker-src blob:`; the wasm is compiled
// under 'wasm-unsafe-eval'), so the thread that holds this object only posts messages and never blocks on a token.
// Threads: wllama uses several only when the page is cross-origin isolated; otherwise one. WebGPU: wllama 3.13
// offloads layers when `navigator.gpu` has an adapter; we ask for none (n_gpu_layers 0) unless `gpu` is set, since a
// WebGPU adapter is missing in headless runs and on many laptops, and the CPU path is the one the tests prove.
import { Wllama, WllamaAbortError, type ChatCompletionChunk, type ChatCompletionMessage } from '@wllama/wllama';
import { HarnessError } from '../contracts';

export interface EngineLoadOptions {
  /** The context window to allocate (tokens); the budget uses this number. */
  nCtx: number;
  /** Offload layers to WebGPU when the browser has an adapter. */
  gpu?: boolean;
  /** Absolute URL of wllama.wasm (the app's own asset). */
  wasmUrl: string;
}

export interface LoadedModel {
  nCtx: number;
  nCtxTrain: number;
  chatTemplate: string | null;
  threads: number;
  metadata: Record<string, string>;
}

export interface GenerateOptions {
  messages: ChatCompletionMessage[];
  maxTokens: number;
  /** A llama.cpp GBNF grammar the sampler must follow. */
  grammar?: string;
  signal: AbortSignal;
  seed?: number;
  temperature?: number;
  onText(delta: string): void;
}

export interface Generation {
  text: string;
  finish: 'stop' | 'length';
  promptTokens: number;
  outputTokens: number;
  /** Milliseconds from the request until the first token, and the whole call. */
  firstTokenMs: number;
  totalMs: number;
  /** llama.cpp's own time per generated token (first sampled token to the last), when it reports timings. */
  decodeMsPerToken?: number;
}

/** One engine per thread: loading another model unloads the previous one (memory is the scarce thing). */
export class BrowserModelEngine {
  private wllama: Wllama | null = null;
  private loadedKey: string | null = null;
  private info: LoadedModel | null = null;

  get loaded(): LoadedModel | null {
    return this.info;
  }

  /** Loads `file` unless the same file (name, size, lastModified) is loaded with the same window already. */
  async load(file: Blob & { name?: string; lastModified?: number }, options: EngineLoadOptions): Promise<LoadedModel> {
    const key = JSON.stringify([
      file.name ?? '',
      file.size,
      file.lastModified ?? 0,
      options.nCtx,
      options.gpu === true,
    ]);
    if (this.info && this.loadedKey === key) return this.info;
    await this.unload();
    const wllama = new Wllama({ default: options.wasmUrl }, { suppressNativeLog: true, logger: quietLogger });
    try {
      await wllama.loadModel([file], {
        n_ctx: options.nCtx,
        n_batch: Math.min(512, options.nCtx),
        n_gpu_layers: options.gpu ? 999 : 0,
        // The chat template is the model's own (GGUF tokenizer.chat_template); llama.cpp's jinja renders it.
        jinja: true,
      });
    } catch (error) {
      await wllama.exit().catch(() => undefined);
      throw new HarnessError(
        'E_BROWSER_MODEL_LOAD',
        `llama.cpp could not load this model: ${messageOf(error)} Check that the file is a complete llama.cpp GGUF, or pick another model in Settings → Model.`,
      );
    }
    const context = wllama.getLoadedContextInfo();
    this.wllama = wllama;
    this.loadedKey = key;
    this.info = {
      nCtx: context.n_ctx,
      nCtxTrain: context.n_ctx_train,
      chatTemplate: wllama.getChatTemplate(),
      threads: wllama.getNumThreads(),
      metadata: context.metadata,
    };
    return this.info;
  }

  async unload(): Promise<void> {
    const w = this.wllama;
    this.wllama = null;
    this.info = null;
    this.loadedKey = null;
    if (w) await w.exit().catch(() => undefined);
  }

  /** Streams one chat completion; abort stops between tokens and resolves with the text so far. */
  async generate(o: GenerateOptions): Promise<Generation> {
    const wllama = this.wllama;
    if (!wllama)
      throw new HarnessError(
        'E_BROWSER_MODEL_NOT_LOADED',
        'No model is loaded in this tab. Pick a model in Settings → Model.',
      );
    const started = performance.now();
    let firstTokenMs = -1;
    let text = '';
    let finish: Generation['finish'] = 'stop';
    let promptTokens = 0;
    let outputTokens = 0;
    let decodeMsPerToken: number | undefined;
    try {
      await wllama.createChatCompletion({
        messages: o.messages,
        max_tokens: o.maxTokens,
        stream: true,
        abortSignal: o.signal,
        seed: o.seed ?? 21,
        temperature: o.temperature ?? 0.7,
        timings_per_token: true,
        ...(o.grammar ? { grammar: o.grammar } : {}),
        onData: (chunk: ChatCompletionChunk) => {
          const choice = chunk.choices[0];
          const delta = choice?.delta?.content;
          if (delta) {
            if (firstTokenMs < 0) firstTokenMs = performance.now() - started;
            text += delta;
            o.onText(delta);
          }
          if (choice?.finish_reason === 'length') finish = 'length';
          // llama.cpp's server sends its timings (token counts included) on the last chunk.
          if (chunk.usage) {
            promptTokens = chunk.usage.prompt_tokens;
            outputTokens = chunk.usage.completion_tokens;
          } else if (chunk.timings) {
            promptTokens = chunk.timings.prompt_n + chunk.timings.cache_n;
            outputTokens = chunk.timings.predicted_n;
          }
          if (chunk.timings?.predicted_n) decodeMsPerToken = chunk.timings.predicted_per_token_ms;
        },
      });
    } catch (error) {
      if (!(error instanceof WllamaAbortError) && !o.signal.aborted) {
        if (/exceeds the available context size/.test(messageOf(error))) {
          throw new HarnessError(
            'E_BROWSER_MODEL_CONTEXT_FULL',
            `The request does not fit the loaded context window: ${messageOf(error)}. Start a new session, compact this one (/compact), or raise the context window in Settings → Model.`,
          );
        }
        throw new HarnessError(
          'E_BROWSER_MODEL_GENERATE',
          `The model stopped with an error: ${messageOf(error)} Try again; if it repeats, reload the tab or pick a smaller model.`,
        );
      }
    }
    const totalMs = performance.now() - started;
    return {
      text,
      finish,
      promptTokens,
      outputTokens,
      firstTokenMs: firstTokenMs < 0 ? totalMs : firstTokenMs,
      totalMs,
      ...(decodeMsPerToken !== undefined ? { decodeMsPerToken } : {}),
    };
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 300);

const noop = () => undefined;
/** llama.cpp's own log lines go nowhere; warnings and errors reach the console. */
const quietLogger = { debug: noop, log: noop, warn: console.warn.bind(console), error: console.error.bind(console) };
