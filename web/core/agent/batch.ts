// Whole-batch validation (seed 000 §5): ids, names, string arguments, `function` type and the finish reason are
// checked for every call before any call runs. One bad call → nothing runs and the model is told why.
import type { AssistantMessage, FinishReason, ToolCall } from '../contracts';
import type { ToolRegistry } from '../tools';

export interface ValidCall {
  id: string;
  name: string;
  /** The raw JSON string, as the model sent it (what `before_tool` receives). */
  rawArguments: string;
}

export interface BatchProblem {
  index: number;
  id: string | null;
  message: string;
}

export type BatchVerdict =
  { ok: true; calls: ValidCall[] } | { ok: false; problems: BatchProblem[]; idsUsable: boolean };

/** Parses a tool call's argument string; a JSON object is the only acceptable result. */
export function parseArguments(
  raw: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (typeof raw !== 'string') return { ok: false, message: 'arguments must be a JSON string' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      ok: false,
      message: `arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'arguments must be a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}

export function validateBatch(
  message: AssistantMessage,
  finishReason: FinishReason,
  tools: ToolRegistry,
): BatchVerdict {
  const calls = (message.tool_calls ?? []) as unknown[];
  const problems: BatchProblem[] = [];
  const seen = new Set<string>();
  let idsUsable = true;
  const valid: ValidCall[] = [];
  if (finishReason !== 'tool_calls') {
    problems.push({
      index: -1,
      id: null,
      message: `the response ended with finish reason "${finishReason}", not "tool_calls", so its tool calls may be incomplete`,
    });
  }
  calls.forEach((raw, index) => {
    const call = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ToolCall>;
    const id = typeof call.id === 'string' && call.id.length > 0 ? call.id : null;
    if (id === null) {
      idsUsable = false;
      problems.push({ index, id: null, message: `tool call ${index + 1} has no id` });
      return;
    }
    if (seen.has(id)) {
      idsUsable = false;
      problems.push({ index, id, message: `tool call id "${id}" is used more than once` });
      return;
    }
    seen.add(id);
    if (call.type !== 'function')
      problems.push({ index, id, message: `tool call "${id}" has type "${String(call.type)}", expected "function"` });
    const name = call.function?.name;
    if (typeof name !== 'string' || !tools.has(name)) {
      problems.push({
        index,
        id,
        message: `tool call "${id}" names unknown tool "${String(name)}"; available: ${tools.names().join(', ') || 'none'}`,
      });
      return;
    }
    const args = parseArguments(call.function?.arguments);
    if (!args.ok) {
      problems.push({ index, id, message: `tool call "${id}" (${name}): ${args.message}` });
      return;
    }
    valid.push({ id, name, rawArguments: call.function!.arguments });
  });
  if (problems.length > 0) return { ok: false, problems, idsUsable };
  return { ok: true, calls: valid };
}
