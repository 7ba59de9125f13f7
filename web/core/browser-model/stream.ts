// The provider "In this browser" (protocol selector `browser`, issue 21) as the loop's stream function: the model
// config names a GGUF stored in this origin's OPFS; the file's header is checked and its memory estimated before
// llama.cpp (wllama, in its own Worker) loads it with the context window the budget uses; each request is the
// JSON-action-protocol projection the loop made, sampled under the grammar of the tools that request shows; tokens
// arrive as the same stream events the HTTP providers produce, and abort stops between two tokens.
import { HarnessError, toErrorData } from '../contracts';
import type { AssistantMessage, Message, ModelResult, ParsedResponse, StreamEvent } from '../contracts';
import type { ModelCall, StreamFn } from '../contracts';
import { EventStream } from '../contracts';
import { BrowserModelEngine, type EngineLoadOptions, type Generation } from './engine';
import { readGgufHeader } from './gguf';
import { actionGrammar } from './grammar';
import { checkFits, estimateMemory, FALLBACK_CONTEXT, memoryAvailable } from './memory';
import { toolsOfJsonRequest } from './request-tools';
import { publishStatus } from './status';

export const BROWSER_PROTOCOL = 'browser';

export interface BrowserStreamOptions {
  /** The GGUF's name in the model store (the config's `model`). */
  model: string;
  /** budget.context_window of the config: the window llama.cpp allocates, so the budget counts what was loaded. */
  contextWindow: number | null;
  /** Opens the stored file (model-store.ts `openStoredModel`); injected so tests can hand a File. */
  open(name: string): Promise<File>;
  wasmUrl: string;
  engine?: BrowserModelEngine;
  /** Offload to WebGPU: a fixed choice, or asked when a model loads (app.ts: is there an adapter?). */
  gpu?: boolean | (() => Promise<boolean>);
  deviceMemory?: number;
  /** Sampling seed; fixed so a turn can be replayed (the tiny test model relies on it). */
  seed?: number;
}

let shared: BrowserModelEngine | undefined;
/** One engine per thread (the agent Worker): the loaded model stays between turns. */
export const sharedEngine = () => (shared ??= new BrowserModelEngine());

/** What one model file loads as: checks first, then the engine (reused when the same file and window are loaded). */
export async function loadChecked(
  file: File,
  o: Pick<BrowserStreamOptions, 'contextWindow' | 'wasmUrl' | 'gpu' | 'deviceMemory'>,
  engine: BrowserModelEngine,
) {
  const header = await readGgufHeader(file);
  const trained = header.contextLength ?? FALLBACK_CONTEXT;
  const nCtx = o.contextWindow ?? Math.min(trained, FALLBACK_CONTEXT);
  if (nCtx > trained) {
    throw new HarnessError(
      'E_BROWSER_MODEL_CONTEXT',
      `The context window ${nCtx} is larger than the ${trained} tokens this model was trained for. Set the context window to ${trained} or less in Settings → Model.`,
      { n_ctx: nCtx, trained },
    );
  }
  const estimate = checkFits(estimateMemory(header, file.size, nCtx), memoryAvailable(o.deviceMemory), nCtx);
  const load: EngineLoadOptions = { nCtx, wasmUrl: o.wasmUrl };
  const gpu = typeof o.gpu === 'function' ? await o.gpu().catch(() => false) : o.gpu === true;
  if (!gpu) return { header, estimate, loaded: await engine.load(file, load), gpu: false };
  try {
    return { header, estimate, loaded: await engine.load(file, { ...load, gpu: true }), gpu: true };
  } catch {
    // A WebGPU adapter that cannot take this model (driver, limits, memory): the CPU path is the proven one.
    return { header, estimate, loaded: await engine.load(file, load), gpu: false };
  }
}

/** Chat messages for llama.cpp's template: text only (images are not sent to a text model). */
function chatMessages(history: readonly Message[]) {
  return history.map((m) => {
    const text =
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
          : '';
    const role = m.role === 'tool' ? 'user' : m.role;
    return { role, content: text ?? '' } as { role: 'system' | 'user' | 'assistant'; content: string };
  });
}

function resultOf(model: string, g: Generation, body: Record<string, unknown>): ModelResult {
  const message: AssistantMessage = { role: 'assistant', content: g.text };
  const usage = { input_tokens: g.promptTokens, output_tokens: g.outputTokens };
  const parsed: ParsedResponse = {
    version: 1,
    response: {
      choices: [{ finish_reason: g.finish, message }],
      usage,
      raw_usage: { prompt_tokens: g.promptTokens, completion_tokens: g.outputTokens },
    },
  };
  const raw = {
    object: 'chat.completion',
    model,
    choices: [{ index: 0, finish_reason: g.finish, message }],
    usage: parsed.response.raw_usage,
  };
  return { raw, parsed, request: { url: `browser:${model}`, body }, attempts: 1 };
}

export function browserStream(options: BrowserStreamOptions): StreamFn {
  const engine = options.engine ?? sharedEngine();
  return (call: ModelCall) => {
    const out = new EventStream<StreamEvent, unknown>();
    void run(call, options, engine, out);
    return out;
  };
}

async function run(
  call: ModelCall,
  o: BrowserStreamOptions,
  engine: BrowserModelEngine,
  out: EventStream<StreamEvent, unknown>,
) {
  const input = call.input;
  let text = '';
  let open = false;
  try {
    out.push({ type: 'start', protocol: BROWSER_PROTOCOL, model: o.model });
    if (call.signal.aborted) throw new HarnessError('E_ABORTED', 'The request was stopped.');
    publishStatus({ state: 'loading', model: o.model });
    const file = await o.open(o.model);
    const { estimate, loaded } = await loadChecked(file, o, engine);
    const tools = toolsOfJsonRequest(input.history);
    if (tools === null && input.tools.length + input.plugin_tools.length > 0 && !input.compact) {
      throw new HarnessError(
        'E_BROWSER_MODEL_TOOLS',
        'A model in the browser takes tools through the JSON action protocol only. Set Tool calling to "JSON actions" in Settings → Model.',
      );
    }
    // The grammar holds every reply to one JSON action; a compaction summary is free text.
    const grammar = tools !== null && !input.compact ? actionGrammar(tools) : undefined;
    let body: Record<string, unknown> = {
      messages: chatMessages(input.history),
      max_tokens: input.max_tokens,
      n_ctx: loaded.nCtx,
      ...(grammar ? { grammar } : {}),
    };
    if (call.hooks.beforeRequest) {
      const changed = await call.hooks.beforeRequest({
        url: `browser:${o.model}`,
        body,
        protocol: BROWSER_PROTOCOL,
        model: o.model,
        request_meta: call.requestMeta,
      });
      body = changed.body;
    }
    const messages = Array.isArray(body.messages)
      ? (body.messages as ReturnType<typeof chatMessages>)
      : chatMessages(input.history);
    publishStatus({
      state: 'generating',
      model: o.model,
      memoryBytes: estimate.total,
      nCtx: loaded.nCtx,
      threads: loaded.threads,
    });
    const started = performance.now();
    let tokens = 0;
    const g = await engine.generate({
      messages,
      maxTokens: Math.min(input.max_tokens, loaded.nCtx),
      ...(typeof body.grammar === 'string' ? { grammar: body.grammar } : {}),
      signal: call.signal,
      seed: o.seed ?? 21,
      onText(delta) {
        if (!open) {
          out.push({ type: 'text-start', index: 0 });
          open = true;
        }
        text += delta;
        tokens++;
        out.push({ type: 'text-delta', index: 0, delta });
        if (tokens % 8 === 0)
          publishStatus({
            state: 'generating',
            model: o.model,
            memoryBytes: estimate.total,
            nCtx: loaded.nCtx,
            threads: loaded.threads,
            tokensPerSecond: tokens / ((performance.now() - started) / 1000),
          });
      },
    });
    if (open) out.push({ type: 'text-end', index: 0 });
    open = false;
    const tokensPerSecond = g.outputTokens / Math.max(0.001, (g.totalMs - g.firstTokenMs) / 1000);
    publishStatus({
      state: 'idle',
      model: o.model,
      memoryBytes: estimate.total,
      nCtx: loaded.nCtx,
      threads: loaded.threads,
      tokensPerSecond,
    });
    if (call.signal.aborted) throw new HarnessError('E_ABORTED', 'The request was stopped.');
    let result = resultOf(o.model, g, body);
    if (call.hooks.afterResponse) {
      const { response } = await call.hooks.afterResponse({ response: result.raw, request_meta: call.requestMeta });
      const choice = (response as { choices?: Array<{ message?: AssistantMessage; finish_reason?: string }> })
        ?.choices?.[0];
      if (choice?.message)
        result = {
          ...result,
          raw: response,
          parsed: {
            ...result.parsed,
            response: {
              ...result.parsed.response,
              choices: [{ finish_reason: choice.finish_reason ?? g.finish, message: choice.message }],
            },
          },
        };
    }
    out.push({ type: 'usage', usage: result.parsed.response.usage ?? {} });
    out.push({ type: 'done', result });
    out.end(result);
  } catch (e) {
    if (open) out.push({ type: 'text-end', index: 0 });
    publishStatus({ state: 'idle', model: o.model });
    const aborted = call.signal.aborted;
    const error = aborted
      ? { code: 'E_ABORTED', message: 'The request was stopped.' }
      : toErrorData(e, 'E_BROWSER_MODEL');
    const partial = text
      ? resultOf(
          o.model,
          { text, finish: 'incomplete' as 'stop', promptTokens: 0, outputTokens: 0, firstTokenMs: 0, totalMs: 0 },
          {},
        )
      : undefined;
    out.push(partial ? { type: 'error', error, result: partial } : { type: 'error', error });
    out.end({ error, aborted, attempts: 1, ...(partial ? { partial } : {}) });
  }
}
