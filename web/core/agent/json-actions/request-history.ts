// The session keeps one shape for both tool protocols (assistant messages with tool_calls, tool messages), so the
// log, the chat UI, undo and session search work unchanged. Only when a JSON-protocol request is built is the
// history projected into the protocol's wire form: calls as the model's JSON action text, results as the user-role
// envelope, and the protocol instructions as one system message after the leading ones. The projection is never
// saved; it is what the budget counts and what is sent.
import type { AssistantMessage, Message, ToolSchema } from '../../contracts';
import { toolResultEnvelope } from './envelope';
import { protocolInstructions } from './instructions';

export function jsonRequestHistory(history: readonly Message[], tools: readonly ToolSchema[]): Message[] {
  let lead = 0;
  while (lead < history.length && history[lead]!.role === 'system') lead++;
  return [...history.slice(0, lead), instructionsMessage(tools), ...jsonProtocolMessages(history.slice(lead))];
}

/**
 * The same projection without the protocol instructions: for a request that must not take actions (a compaction
 * summary) but still cannot carry native tool messages to a server without tool calling.
 */
export function jsonProtocolMessages(history: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  return history.map((m) => {
    if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
      return assistantText(m);
    }
    if (m.role === 'tool')
      return {
        role: 'user',
        content: toolResultEnvelope(names.get(m.tool_call_id) ?? 'unknown', m._error !== true, m.content),
      };
    return m;
  });
}

function instructionsMessage(tools: readonly ToolSchema[]): Message {
  return { role: 'system', content: protocolInstructions(tools) };
}

/**
 * An answer as the model sees it again: its own reply text when it answered under this protocol, else (a native
 * answer from before a switch) its text followed by one JSON action per tool call. Provider replay state
 * (Anthropic blocks, Responses items) is dropped: it describes native tool calls the request no longer has.
 */
function assistantText(m: AssistantMessage): AssistantMessage {
  const { tool_calls: calls, _anthropic_content: _a, _responses_output: _r, ...rest } = m;
  const reply = m._provider?.json_reply;
  if (typeof reply === 'string') return { ...rest, content: reply };
  if (!calls?.length) return { ...rest, content: m.content ?? '' };
  const actions = calls.map((c) =>
    JSON.stringify({ type: 'tool_call', name: c.function.name, arguments: argumentsOf(c.function.arguments) }),
  );
  return { ...rest, content: [m.content ?? '', ...actions].filter((s) => s !== '').join('\n') };
}

function argumentsOf(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
