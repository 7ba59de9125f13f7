// History normalisation shared by every adapter. Two rules from seed 003 "Thinking 与图片":
// - replay state (`reasoning_content`, `_anthropic_content`, `_responses_output`) is only reused by the protocol that
//   produced it; another protocol's opaque reasoning is dropped, never converted;
// - every tool call is answered before the conversation continues (all four APIs reject a dangling call), so a call
//   without a result (an interrupted batch, a crash between call and result) gets a synthetic error result.
import type { AssistantMessage, Message, ProviderNotice, ToolMessage } from '../contracts';

export const MISSING_TOOL_RESULT =
  'No result: the tool call was interrupted before it returned. Call it again if it is still needed.';

/** True when the message's replay state belongs to `protocol` (messages without `_provider` are trusted as-is). */
export function ownsReplayState(message: AssistantMessage, protocol: string): boolean {
  return message._provider === undefined || message._provider.protocol === protocol;
}

/** Inserts an error result for every tool call that has none, right after the calls' assistant turn. */
export function answerDanglingToolCalls(history: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < history.length; i++) {
    const m = history[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    let j = i + 1;
    // Results follow their calls; tool-image user messages (`_meta.kind === 'tool_images'`) may sit among them.
    while (j < history.length) {
      const n = history[j]!;
      if (n.role === 'tool') answered.add(n.tool_call_id);
      else if (!(n.role === 'user' && n._meta?.kind === 'tool_images')) break;
      j++;
    }
    const missing: ToolMessage[] = m.tool_calls
      .filter((c) => !answered.has(c.id))
      .map((c) => ({ role: 'tool', tool_call_id: c.id, content: MISSING_TOOL_RESULT, _error: true }));
    if (missing.length === 0) continue;
    // Keep the real results first, then the synthetic ones, then whatever followed.
    for (let k = i + 1; k < j; k++) out.push(history[k]!);
    out.push(...missing);
    i = j - 1;
  }
  return out;
}

/**
 * The one-time notice of a protocol switch: it fires while the latest assistant turn came from another protocol,
 * i.e. on the first request after the switch, and stops once the new protocol has answered.
 */
export function replayNotice(history: readonly Message[], protocol: string): ProviderNotice | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== 'assistant') continue;
    if (m._provider && m._provider.protocol !== protocol) {
      return {
        code: 'N_REPLAY_NOT_LOSSLESS',
        message: `This session continues with protocol "${protocol}" after "${m._provider.protocol}". Earlier reasoning state of the other provider is dropped, so replay is not lossless; start a new session for the best results.`,
      };
    }
    return null;
  }
  return null;
}
