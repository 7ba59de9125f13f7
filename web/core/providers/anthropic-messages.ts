// Anthropic Messages (protocol `anthropic`). Wire: POST {base}/v1/messages with `x-api-key`, `anthropic-version`
// and `anthropic-dangerous-direct-browser-access: true` (the API refuses browser CORS without it). System goes
// top-level; tool results are user `tool_result` blocks; the original assistant content (thinking with its
// signature, redacted_thinking, tool_use) is kept in `_anthropic_content` and replayed verbatim (seed 003), because
// the API verifies thinking signatures on the next turn of a tool loop.
import { HarnessError } from '../contracts';
import { createAnthropicStreamDecoder } from './anthropic-messages-stream';
import { splitDataUrl } from './data-url';
import { validateExtraBody } from './extra-body';
import { answerDanglingToolCalls, ownsReplayState } from './history';
import { argumentsObject, arr, isObject, joinUrl, obj, str } from './json-text';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason';
import { mapAnthropicUsage } from './map-usage';
import type {
  AssistantMessage,
  ContentPart,
  Message,
  ParsedResponse,
  PrepareInput,
  PreparedRequest,
  ProviderAdapter,
  ToolCall,
} from '../contracts';

export const ANTHROPIC_VERSION = '2023-06-01';

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

function userBlocks(content: string | ContentPart[]): Block[] {
  const parts: ContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const out: Block[] = [];
  for (const p of parts) {
    if (p.type === 'text') {
      if (p.text) out.push({ type: 'text', text: p.text });
    } else if (p.file_id) {
      out.push({ type: 'image', source: { type: 'file', file_id: p.file_id } });
    } else {
      const { mediaType, data } = splitDataUrl(p.image_url.url);
      out.push({ type: 'image', source: { type: 'base64', media_type: mediaType, data } });
    }
  }
  return out;
}

function assistantBlocks(m: AssistantMessage): Block[] {
  if (m._anthropic_content && ownsReplayState(m, 'anthropic')) return m._anthropic_content as Block[];
  const out: Block[] = [];
  if (m.content) out.push({ type: 'text', text: m.content });
  for (const c of m.tool_calls ?? [])
    out.push({ type: 'tool_use', id: c.id, name: c.function.name, input: argumentsObject(c.function.arguments) });
  return out;
}

function wireMessages(history: readonly Message[]): { system: string; messages: WireMessage[] } {
  const system: string[] = [];
  const messages: WireMessage[] = [];
  const add = (role: WireMessage['role'], content: Block[]) => {
    if (content.length === 0) return;
    const last = messages[messages.length - 1];
    // Consecutive same-role turns merge: tool results, tool images and a following user text form one user turn.
    if (last && last.role === role) last.content.push(...content);
    else messages.push({ role, content: [...content] });
  };
  for (const m of answerDanglingToolCalls(history)) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') add('user', userBlocks(m.content));
    else if (m.role === 'assistant') add('assistant', assistantBlocks(m));
    else
      add('user', [
        {
          type: 'tool_result',
          tool_use_id: m.tool_call_id,
          content: m.content,
          ...(m._error ? { is_error: true } : {}),
        },
      ]);
  }
  return { system: system.join('\n\n'), messages };
}

export function prepareAnthropic(input: PrepareInput): PreparedRequest {
  const extra = validateExtraBody('anthropic', input.extra_body);
  const { system, messages } = wireMessages(input.history);
  const tools = input.compact ? [] : [...input.tools, ...input.plugin_tools];
  const body: Record<string, unknown> = { model: input.model, max_tokens: input.max_tokens };
  if (system) body.system = system;
  body.messages = messages;
  if (tools.length)
    body.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  body.stream = input.stream;
  Object.assign(body, extra);
  return {
    version: 1,
    url: joinUrl(input.base_url, '/v1/messages'),
    body,
    headers: { 'anthropic-version': ANTHROPIC_VERSION, 'anthropic-dangerous-direct-browser-access': 'true' },
    auth: { header: 'x-api-key', prefix: '' },
  };
}

export function parseAnthropic(raw: unknown): ParsedResponse {
  if (!isObject(raw) || !Array.isArray(raw.content)) {
    const err = obj(obj(raw).error);
    throw new HarnessError(
      'E_PROVIDER_RESPONSE',
      str(err.message)
        ? `The provider answered with an error: ${str(err.message)}`
        : 'The model response has no "content" array, so it is not an Anthropic Messages response. Check the protocol and base_url settings.',
      { protocol: 'anthropic' },
    );
  }
  const text: string[] = [];
  const thinking: string[] = [];
  const calls: ToolCall[] = [];
  for (const b of raw.content) {
    const block = obj(b);
    if (block.type === 'text') text.push(str(block.text) ?? '');
    else if (block.type === 'thinking') thinking.push(str(block.thinking) ?? '');
    else if (block.type === 'tool_use') {
      calls.push({
        id: str(block.id) ?? '',
        type: 'function',
        function: { name: str(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const message: AssistantMessage = { role: 'assistant', content: text.length ? text.join('') : null };
  if (thinking.length) message.reasoning_content = thinking.join('\n\n');
  if (calls.length) message.tool_calls = calls;
  message._anthropic_content = arr(raw.content);
  message._provider = { protocol: 'anthropic', model: str(raw.model) ?? '' };
  const usage = mapAnthropicUsage(raw.usage);
  return {
    version: 1,
    response: {
      choices: [{ finish_reason: mapAnthropicStopReason(raw.stop_reason), message }],
      ...(usage ? { usage, raw_usage: raw.usage } : {}),
    },
  };
}

export const anthropicAdapter: ProviderAdapter = {
  protocol: 'anthropic',
  prepare: prepareAnthropic,
  parse: parseAnthropic,
  createStreamDecoder: createAnthropicStreamDecoder,
};
