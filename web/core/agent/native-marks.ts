// Tool results on the native path are marked as untrusted data in the model's view (seed 002: "原生路径保持 Tool
// 消息 … 两者都明确标记 untrusted_tool_data"). The session keeps the plain result; only the request carries the
// mark, like the JSON path's envelope. A first line instead of a JSON wrapper: the mark costs a handful of tokens
// and the output (often source code) stays unescaped and readable. Deterministic, so the cached prefix is stable.
import type { Message, ToolMessage } from '../contracts';

/** The first line of every tool result the model sees on the native path. */
export const UNTRUSTED_TOOL_DATA_LINE = 'untrusted_tool_data: true';

/** The tool message's text as the model sees it. */
export function markedToolContent(content: string): string {
  return `${UNTRUSTED_TOOL_DATA_LINE}\n${content}`;
}

/** The history with every tool message marked; other messages are the same objects (the usage anchor still sees them). */
export function nativeRequestHistory(history: readonly Message[]): Message[] {
  return history.map((m) => (m.role === 'tool' ? markTool(m) : m));
}

function markTool(m: ToolMessage): ToolMessage {
  return { ...m, content: markedToolContent(m.content) };
}
