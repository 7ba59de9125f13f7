// Turns a JSON-protocol reply into the assistant message the session keeps. A tool_call becomes an ordinary
// assistant message with one tool call and a generated id, so the batch check, hooks (before_tool gets the
// arguments as a JSON string), approvals, bounded views, the log, the UI and undo all take the native path.
// final and ask_user become the answer text. A malformed reply keeps its text and brings the protocol error,
// which the loop sends back in the envelope (it counts as a step).
import type { AssistantMessage, FinishReason } from '../../contracts';
import { PROTOCOL_ERROR_NAME, toolResultEnvelope } from './envelope';
import { parseJsonAction, type JsonActionCode } from './parse';

export type JsonAnswer =
  | { kind: 'tool_call' | 'final' | 'ask_user'; message: AssistantMessage; finishReason: FinishReason }
  | {
      kind: 'malformed';
      message: AssistantMessage;
      finishReason: FinishReason;
      code: JsonActionCode;
      error: string;
      envelope: string;
    };

/** `answer`: the provider's parsed message (its `_provider` stamped); `tools`: the names the request showed. */
export function jsonAnswer(
  answer: AssistantMessage,
  finishReason: FinishReason,
  tools: ReadonlySet<string>,
  newId: () => string,
): JsonAnswer {
  const reply = typeof answer.content === 'string' ? answer.content : '';
  // Native replay state and stray native calls describe nothing the request asked for; the reply text is the answer.
  const { tool_calls: _c, _anthropic_content: _a, _responses_output: _r, ...rest } = answer;
  const provider = {
    protocol: answer._provider?.protocol ?? '',
    model: answer._provider?.model ?? '',
    tool_protocol: 'json' as const,
    json_reply: reply,
  };
  const parsed = parseJsonAction(reply, tools);
  if (!parsed.ok) {
    const error = `Error ${parsed.code}: ${parsed.message}`;
    return {
      kind: 'malformed',
      message: { ...rest, content: reply, _provider: provider },
      finishReason,
      code: parsed.code,
      error,
      envelope: toolResultEnvelope(PROTOCOL_ERROR_NAME, false, error),
    };
  }
  const action = parsed.action;
  if (action.type === 'tool_call') {
    const call = {
      id: newId(),
      type: 'function' as const,
      function: { name: action.name, arguments: JSON.stringify(action.arguments) },
    };
    return {
      kind: 'tool_call',
      message: { ...rest, content: null, tool_calls: [call], _provider: provider },
      finishReason: 'tool_calls',
    };
  }
  const text = action.type === 'final' ? action.content : action.question;
  // No native call was asked for: a stray "tool_calls" finish reason must not make the batch check expect calls.
  return {
    kind: action.type,
    message: { ...rest, content: text, _provider: provider },
    finishReason: finishReason === 'tool_calls' ? 'stop' : finishReason,
  };
}
