// OpenAI Responses (protocol `responses`). Wire: POST {base}/responses, `authorization: Bearer <key>`.
// Seed 003: input_text/input_image; function_call_output linked by `call_id` (never the output item id);
// `store: false` with `include: ["reasoning.encrypted_content"]`, and every output item (reasoning with its
// encrypted_content, message, function_call) kept in `_responses_output` and replayed verbatim, since without
// server-side state that is the only way reasoning survives a tool loop. An incomplete response never runs tools.
import { HarnessError } from '../contracts';
import { validateExtraBody } from './extra-body';
import { answerDanglingToolCalls, ownsReplayState } from './history';
import { arr, isObject, joinUrl, obj, str } from './json-text';
import { mapResponsesUsage } from './map-usage';
import { createResponsesStreamDecoder } from './openai-responses-stream';
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

function inputItems(history: readonly Message[]): { instructions: string; input: unknown[] } {
  const system: string[] = [];
  const input: unknown[] = [];
  for (const m of answerDanglingToolCalls(history)) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user': {
        const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
        input.push({
          role: 'user',
          content: parts.map((p) =>
            p.type === 'text'
              ? { type: 'input_text', text: p.text }
              : p.file_id
                ? { type: 'input_image', file_id: p.file_id }
                : { type: 'input_image', image_url: p.image_url.url },
          ),
        });
        break;
      }
      case 'assistant':
        if (m._responses_output && ownsReplayState(m, 'responses')) {
          input.push(...m._responses_output);
        } else {
          if (m.content) input.push({ role: 'assistant', content: m.content });
          for (const c of m.tool_calls ?? [])
            input.push({
              type: 'function_call',
              call_id: c.id,
              name: c.function.name,
              arguments: c.function.arguments,
            });
        }
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: m.tool_call_id, output: m.content });
        break;
    }
  }
  return { instructions: system.join('\n\n'), input };
}

export function prepareResponses(input: PrepareInput): PreparedRequest {
  const extra = validateExtraBody('responses', input.extra_body);
  const { instructions, input: items } = inputItems(input.history);
  const tools = input.compact ? [] : [...input.tools, ...input.plugin_tools];
  const body: Record<string, unknown> = { model: input.model };
  if (instructions) body.instructions = instructions;
  body.input = items;
  if (tools.length)
    body.tools = tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
  body.max_output_tokens = input.max_tokens;
  body.store = false;
  body.include = ['reasoning.encrypted_content'];
  body.stream = input.stream;
  Object.assign(body, extra);
  return {
    version: 1,
    url: joinUrl(input.base_url, '/responses'),
    body,
    headers: {},
    auth: { header: 'authorization', prefix: 'Bearer ' },
  };
}

export function parseResponses(raw: unknown): ParsedResponse {
  // A failed response need not carry an output array: its error says more than "not a Responses answer" would.
  if (isObject(raw) && raw.status === 'failed') {
    const e = obj(raw.error);
    const code = str(e.code) ?? null;
    throw new HarnessError(
      'E_PROVIDER_FAILED',
      `The provider reports the response failed: ${str(e.message) ?? 'no reason given'}${code ? ` (code ${code})` : ''}. Try again, or shorten the request.`,
      {
        code,
      },
    );
  }
  if (!isObject(raw) || !Array.isArray(raw.output)) {
    throw new HarnessError(
      'E_PROVIDER_RESPONSE',
      'The model response has no "output" array, so it is not a Responses API response. Check the protocol and base_url settings.',
      {
        protocol: 'responses',
      },
    );
  }
  const incomplete = raw.status === 'incomplete' || raw.status === 'in_progress';
  const text: string[] = [];
  const summary: string[] = [];
  const calls: ToolCall[] = [];
  for (const it of raw.output) {
    const item = obj(it);
    if (item.type === 'message') {
      for (const c of arr(item.content)) if (obj(c).type === 'output_text') text.push(str(obj(c).text) ?? '');
    } else if (item.type === 'reasoning') {
      // A summary (OpenAI) is what is shown; raw `reasoning_text` content (open models on local servers) when
      // there is no summary. Both stay in the item, which is replayed as it came.
      const parts = arr(item.summary).length
        ? arr(item.summary)
        : arr(item.content).filter((c) => obj(c).type === 'reasoning_text');
      for (const s of parts) summary.push(str(obj(s).text) ?? '');
    } else if (item.type === 'function_call') {
      calls.push({
        id: str(item.call_id) ?? '',
        type: 'function',
        function: { name: str(item.name) ?? '', arguments: str(item.arguments) ?? '' },
      });
    }
  }
  const message: AssistantMessage = { role: 'assistant', content: text.length ? text.join('') : null };
  if (summary.length) message.reasoning_content = summary.join('\n\n');
  // An incomplete response keeps its text and reasoning but never its calls: they may be cut off, and a replayed
  // function_call without an output would be refused on the next turn.
  if (calls.length && !incomplete) message.tool_calls = calls;
  message._responses_output = incomplete ? raw.output.filter((it) => obj(it).type !== 'function_call') : raw.output;
  message._provider = { protocol: 'responses', model: str(raw.model) ?? '' };
  const finish: FinishReason = incomplete ? 'incomplete' : calls.length ? 'tool_calls' : 'stop';
  const usage = mapResponsesUsage(raw.usage);
  return {
    version: 1,
    response: { choices: [{ finish_reason: finish, message }], ...(usage ? { usage, raw_usage: raw.usage } : {}) },
  };
}

export const responsesAdapter: ProviderAdapter = {
  protocol: 'responses',
  prepare: prepareResponses,
  parse: parseResponses,
  createStreamDecoder: createResponsesStreamDecoder,
};
