// A scripted model for loop tests: each call takes the next reply, runs the transport hooks the way the real
// transport does (before_request → after_response), emits text events and ends with `done`.
import type { AssistantMessage, FinishReason, ModelResult, StreamEvent, ToolCall, Usage } from '../../contracts/messages';
import type { ModelCall, StreamFn } from '../types';

export interface Reply {
  content?: string | null;
  tool_calls?: ToolCall[];
  finish_reason?: FinishReason;
  usage?: Usage;
  /** Fail this call with an error event instead. */
  error?: { code: string; message: string };
  /** Wait for the signal (abort tests) before answering. */
  hang?: boolean;
  /** With `hang`: text and thinking streamed before hanging (a stop mid-answer). */
  partial?: { text?: string; thinking?: string };
  /** What the adapter says about this request (ModelResult.notices), e.g. a replay that is not lossless. */
  notices?: Array<{ code: string; message: string }>;
}

export interface ScriptedModel {
  stream: StreamFn;
  calls: ModelCall[];
  /** Bodies after before_request, as they would be sent. */
  sent: Array<{ url: string; body: Record<string, unknown> }>;
}

export const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

export function scriptedModel(replies: Reply[], options: { record?: boolean } = {}): ScriptedModel {
  const calls: ModelCall[] = [];
  const sent: ScriptedModel['sent'] = [];
  let next = 0;
  const stream: StreamFn = (c) =>
    (async function* (): AsyncGenerator<StreamEvent> {
      if (options.record !== false) calls.push(structuredClone({ ...c, hooks: undefined, signal: undefined }) as unknown as ModelCall);
      const reply = replies[next++];
      yield { type: 'start', protocol: c.input.protocol, model: c.input.model };
      if (!reply) {
        yield { type: 'error', error: { code: 'E_SCRIPT_EXHAUSTED', message: 'The scripted model has no more replies.' } };
        return;
      }
      let url = `${c.input.base_url}/chat/completions`;
      let body: Record<string, unknown> = { model: c.input.model, messages: c.input.history };
      let meta = { ...c.requestMeta };
      try {
        if (c.hooks.beforeRequest) ({ url, body, request_meta: meta } = await c.hooks.beforeRequest({ url, body, protocol: c.input.protocol, model: c.input.model, request_meta: meta }));
      } catch (error) {
        yield { type: 'error', error: { code: 'E_HOOK', message: String(error instanceof Error ? error.message : error) } };
        return;
      }
      sent.push({ url, body });
      if (reply.hang) {
        if (reply.partial?.thinking) yield { type: 'thinking-delta', index: 0, delta: reply.partial.thinking };
        if (reply.partial?.text) yield { type: 'text-delta', index: 1, delta: reply.partial.text };
        await new Promise<void>((resolve) => c.signal.addEventListener('abort', () => resolve(), { once: true }));
      }
      if (c.signal.aborted) {
        yield { type: 'error', error: { code: 'E_ABORTED', message: 'aborted' } };
        return;
      }
      if (reply.error) {
        yield { type: 'error', error: reply.error };
        return;
      }
      const message: AssistantMessage = { role: 'assistant', content: reply.content ?? null, ...(reply.tool_calls ? { tool_calls: reply.tool_calls } : {}) };
      let raw: unknown = { choices: [{ message, finish_reason: reply.finish_reason ?? (reply.tool_calls ? 'tool_calls' : 'stop') }] };
      if (c.hooks.afterResponse) raw = (await c.hooks.afterResponse({ response: raw, request_meta: meta })).response;
      if (typeof reply.content === 'string') {
        yield { type: 'text-start', index: 0 };
        yield { type: 'text-delta', index: 0, delta: reply.content };
        yield { type: 'text-end', index: 0 };
      }
      const parsed = raw as { choices: Array<{ message: AssistantMessage; finish_reason: FinishReason }> };
      const result: ModelResult = {
        raw,
        parsed: { version: 1, response: { choices: parsed.choices, ...(reply.usage ? { usage: reply.usage } : {}) } },
        request: { url, body },
        attempts: 1,
        ...(reply.notices ? { notices: reply.notices } : {}),
      };
      yield { type: 'done', result };
    })();
  return { stream, calls, sent };
}
