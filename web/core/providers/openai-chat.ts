// Chat Completions (protocol `openai`) and DeepSeek (protocol `deepseek`) as a small flag set on the same adapter.
// Wire: POST {base}/chat/completions, `authorization: Bearer <key>`, messages with `image_url` parts, function tools.
import { HarnessError } from '../contracts';
import { validateExtraBody } from './extra-body';
import { answerDanglingToolCalls, ownsReplayState } from './history';
import { arr, isObject, joinUrl, obj, str } from './json-text';
import { mapChatUsage } from './map-usage';
import { createChatStreamDecoder } from './openai-chat-stream';
import type {
  AssistantMessage,
  FinishReason,
  Message,
  ParsedResponse,
  PrepareInput,
  PreparedRequest,
  ProviderAdapter,
  ToolCall,
} from '../contracts';

export interface ChatFlags {
  protocol: string;
  /** DeepSeek: keep and replay assistant `reasoning_content` (its thinking mode requires it across tool calls). */
  replayReasoning: boolean;
  /** DeepSeek only knows `max_tokens`; native OpenAI Chat picks the field by `use_max_tokens`. */
  outputField: 'by-config' | 'max_tokens';
}

export const OPENAI_CHAT_FLAGS: ChatFlags = { protocol: 'openai', replayReasoning: false, outputField: 'by-config' };
export const DEEPSEEK_FLAGS: ChatFlags = { protocol: 'deepseek', replayReasoning: true, outputField: 'max_tokens' };

function wireMessage(m: Message, flags: ChatFlags): Record<string, unknown> {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return {
        role: 'user',
        content:
          typeof m.content === 'string'
            ? m.content
            : m.content.map((p) =>
                p.type === 'text'
                  ? { type: 'text', text: p.text }
                  : { type: 'image_url', image_url: { url: p.image_url.url } },
              ),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    case 'assistant': {
      const out: Record<string, unknown> = {
        role: 'assistant',
        content: m.content ?? (m.tool_calls?.length ? null : ''),
      };
      if (flags.replayReasoning && m.reasoning_content !== undefined && ownsReplayState(m, flags.protocol)) {
        out.reasoning_content = m.reasoning_content;
      }
      if (m.tool_calls?.length) {
        // Arguments go back as the exact string the model produced (seed 003: DeepSeek keeps the raw text).
        out.tool_calls = m.tool_calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.function.name, arguments: c.function.arguments },
        }));
      }
      return out;
    }
  }
}

export function prepareChat(input: PrepareInput, flags: ChatFlags): PreparedRequest {
  const extra = validateExtraBody(flags.protocol, input.extra_body);
  const tools = input.compact ? [] : [...input.tools, ...input.plugin_tools];
  const body: Record<string, unknown> = {
    model: input.model,
    // An answer stopped before any text (thinking only) is kept for the person, not sent: some servers refuse an
    // assistant message with empty content.
    messages: answerDanglingToolCalls(input.history)
      .filter((m) => !(m.role === 'assistant' && m._stopped && !m.content && !m.tool_calls?.length))
      .map((m) => wireMessage(m, flags)),
  };
  if (tools.length) {
    body.tools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  const field = flags.outputField === 'max_tokens' || input.use_max_tokens ? 'max_tokens' : 'max_completion_tokens';
  body[field] = input.max_tokens;
  body.stream = input.stream;
  if (input.stream) body.stream_options = { include_usage: true };
  Object.assign(body, extra);
  return {
    version: 1,
    url: joinUrl(input.base_url, '/chat/completions'),
    body,
    headers: {},
    auth: { header: 'authorization', prefix: 'Bearer ' },
  };
}

/** Chat finish reasons are already the host's vocabulary; `function_call` is the legacy spelling. */
function finishReason(v: unknown, hasCalls: boolean): FinishReason {
  if (v === 'function_call') return 'tool_calls';
  if (typeof v === 'string' && v) return v;
  return hasCalls ? 'tool_calls' : 'stop';
}

export function parseChat(raw: unknown, flags: ChatFlags): ParsedResponse {
  if (!isObject(raw) || !Array.isArray(raw.choices)) {
    throw new HarnessError(
      'E_PROVIDER_RESPONSE',
      'The model response has no "choices" array, so it is not a Chat Completions response. Check the protocol and base_url settings.',
      {
        protocol: flags.protocol,
      },
    );
  }
  const choices = raw.choices.map((c) => {
    const choice = obj(c);
    const msg = obj(choice.message);
    const calls: ToolCall[] = arr(msg.tool_calls).map((t) => {
      const tc = obj(t);
      const fn = obj(tc.function);
      return {
        id: str(tc.id) ?? '',
        type: 'function',
        function: { name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '' },
      };
    });
    const message: AssistantMessage = { role: 'assistant', content: str(msg.content) ?? null };
    const reasoning = str(msg.reasoning_content) ?? str(msg.reasoning);
    if (reasoning !== undefined) message.reasoning_content = reasoning;
    if (calls.length) message.tool_calls = calls;
    message._provider = { protocol: flags.protocol, model: str(raw.model) ?? '' };
    return { finish_reason: finishReason(choice.finish_reason, calls.length > 0), message };
  });
  const usage = mapChatUsage(raw.usage);
  return { version: 1, response: { choices, ...(usage ? { usage, raw_usage: raw.usage } : {}) } };
}

export function createChatAdapter(flags: ChatFlags): ProviderAdapter {
  return {
    protocol: flags.protocol,
    prepare: (input) => prepareChat(input, flags),
    parse: (raw) => parseChat(raw, flags),
    createStreamDecoder: () => createChatStreamDecoder(),
  };
}

export const openaiChatAdapter = createChatAdapter(OPENAI_CHAT_FLAGS);
export const deepseekAdapter = createChatAdapter(DEEPSEEK_FLAGS);
