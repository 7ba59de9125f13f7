// What the chat shows of a stored assistant message's thinking. Each protocol keeps it in its own replay field:
// DeepSeek-style `reasoning_content`, Anthropic `thinking` blocks, Responses reasoning summaries.
import type { AssistantMessage } from '../contracts';

type Block = Record<string, unknown>;
const isBlock = (v: unknown): v is Block => typeof v === 'object' && v !== null;

export function thinkingOf(message: AssistantMessage): string {
  if (typeof message.reasoning_content === 'string' && message.reasoning_content) return message.reasoning_content;
  if (message._stopped?.thinking) return message._stopped.thinking;
  const parts: string[] = [];
  for (const block of message._anthropic_content ?? []) {
    if (isBlock(block) && block.type === 'thinking' && typeof block.thinking === 'string') parts.push(block.thinking);
    if (isBlock(block) && block.type === 'redacted_thinking') parts.push('[redacted thinking]');
  }
  for (const item of message._responses_output ?? []) {
    if (!isBlock(item) || item.type !== 'reasoning' || !Array.isArray(item.summary)) continue;
    for (const s of item.summary) if (isBlock(s) && typeof s.text === 'string') parts.push(s.text);
  }
  return parts.join('\n\n');
}
