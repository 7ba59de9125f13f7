// The tools a JSON-protocol request shows, read back from its instructions message. Under tool_protocol "json" the
// loop sends no `tools` field: the schemas travel as one JSON line each in the system message that
// `protocolInstructions` (web/core/agent/json-actions/instructions.ts) writes, which is exactly what the model sees,
// so the grammar is built from the same list the model was told about.
import type { Message, ToolSchema } from '../contracts';

const INSTRUCTIONS_START = 'Tool protocol: JSON actions.';
const TOOLS_LINE = /^Tools \((\d+)\), one JSON schema per line:$/;

/** The instructions' tools, or null when the request carries no JSON-protocol instructions (a native request). */
export function toolsOfJsonRequest(history: readonly Message[]): ToolSchema[] | null {
  const message = history.find(
    (m) => m.role === 'system' && typeof m.content === 'string' && m.content.startsWith(INSTRUCTIONS_START),
  );
  if (!message || typeof message.content !== 'string') return null;
  const lines = message.content.split('\n');
  const at = lines.findIndex((l) => TOOLS_LINE.test(l));
  if (at < 0) return [];
  const count = Number(TOOLS_LINE.exec(lines[at]!)![1]);
  const tools: ToolSchema[] = [];
  for (const line of lines.slice(at + 1, at + 1 + count)) {
    const t = JSON.parse(line) as Partial<ToolSchema>;
    if (typeof t.name === 'string')
      tools.push({
        name: t.name,
        description: typeof t.description === 'string' ? t.description : '',
        parameters: t.parameters && typeof t.parameters === 'object' ? t.parameters : { type: 'object' },
      });
  }
  return tools;
}
