// The `i --json` NDJSON event schema (version 1). One JSON object per line on stdout; the last line is always
// `done` or `error`. Documented in web/core/agent/CONTEXT.md; fields are only ever added, never renamed.
import type { ErrorData } from '../contracts';
import type { AgentEvent, TurnResult } from '../agent';
import type { CompactionInfo, ContextSize, StepUsage } from '../contracts';

export const JSON_EVENTS_VERSION = 1;

export type JsonEvent =
  | { type: 'start'; version: 1; session: string | null; protocol: string; model: string; workspace: string }
  | { type: 'step'; step: number }
  | { type: 'text'; step: number; delta: string }
  | { type: 'thinking'; step: number; delta: string }
  | { type: 'retry'; step: number; attempt: number; delay_ms: number; reason: string }
  | {
      type: 'assistant';
      step: number;
      content: string | null;
      finish_reason: string;
      tool_calls: Array<{ id: string; name: string; arguments: string }>;
    }
  | { type: 'batch_invalid'; step: number; errors: Array<{ index: number; id: string | null; message: string }> }
  | { type: 'tool_call'; step: number; id: string; name: string; arguments: Record<string, unknown> }
  | { type: 'approval'; step: number; id: string; name: string; allowed: boolean; by: string }
  | {
      type: 'tool_result';
      step: number;
      id: string;
      name: string;
      error: boolean;
      code?: string;
      output: string;
      images: number;
    }
  /**
   * Live output of a running shell command (issue 31), between its `tool_call` and `tool_result` (a background
   * command's until the turn ends): at most 4 KiB per event and 256 KiB per command (then one event with `cut`).
   */
  | { type: 'tool_output'; id: string; name: string; delta: string; background?: string; cut?: true }
  | { type: 'usage'; step: number; usage: StepUsage; context: ContextSize; compact?: true }
  | { type: 'compacted'; step: number; removed: number; compaction: CompactionInfo; summary: string }
  | { type: 'compaction_failed'; step: number; error: ErrorData }
  | { type: 'checkpoint'; step: number; messages: number; session: string }
  | { type: 'warning'; step: number; error: ErrorData }
  | {
      type: 'done';
      stop_reason: string;
      text: string;
      steps: number;
      usage: TurnResult['usage'];
      tool_calls: TurnResult['toolCalls'];
    }
  | {
      type: 'error';
      stop_reason: string | null;
      error: ErrorData;
      steps?: number;
      tool_calls?: TurnResult['toolCalls'];
    };

/** Maps a loop event to zero or one JSON event (stream block boundaries are folded into text/thinking deltas). */
export function toJsonEvent(e: AgentEvent): JsonEvent | null {
  switch (e.type) {
    case 'step-start':
      return { type: 'step', step: e.step };
    case 'model': {
      const m = e.event;
      if (m.type === 'text-delta') return { type: 'text', step: e.step, delta: m.delta };
      if (m.type === 'thinking-delta') return { type: 'thinking', step: e.step, delta: m.delta };
      if (m.type === 'retry')
        return { type: 'retry', step: e.step, attempt: m.attempt, delay_ms: m.delayMs, reason: m.reason };
      return null;
    }
    case 'assistant':
      return {
        type: 'assistant',
        step: e.step,
        content: e.message.content,
        finish_reason: e.finishReason,
        tool_calls: (e.message.tool_calls ?? []).map((c) => ({
          id: c.id,
          name: c.function?.name,
          arguments: c.function?.arguments,
        })),
      };
    case 'batch-invalid':
      return { type: 'batch_invalid', step: e.step, errors: e.errors };
    case 'tool-start':
      return { type: 'tool_call', step: e.step, id: e.id, name: e.name, arguments: e.arguments };
    case 'approval':
      return { type: 'approval', step: e.step, id: e.id, name: e.name, allowed: e.allowed, by: e.by };
    case 'tool-result':
      return {
        type: 'tool_result',
        step: e.step,
        id: e.id,
        name: e.name,
        error: e.error,
        ...(e.code ? { code: e.code } : {}),
        output: e.output,
        images: e.images,
      };
    case 'usage':
      return {
        type: 'usage',
        step: e.step,
        usage: e.usage,
        context: e.context,
        ...(e.compact ? { compact: true as const } : {}),
      };
    case 'compacted':
      return { type: 'compacted', step: e.step, removed: e.removed, compaction: e.compaction, summary: e.summary };
    case 'compaction-failed':
      return { type: 'compaction_failed', step: e.step, error: e.error };
    case 'checkpoint':
      return { type: 'checkpoint', step: e.step, messages: e.messages, session: e.path };
    case 'warning':
      return { type: 'warning', step: e.step, error: e.error };
    case 'done':
      return {
        type: 'done',
        stop_reason: e.result.stopReason,
        text: e.result.text,
        steps: e.result.steps,
        usage: e.result.usage,
        tool_calls: e.result.toolCalls,
      };
    case 'error':
      return {
        type: 'error',
        stop_reason: e.result.stopReason,
        error: e.error,
        steps: e.result.steps,
        tool_calls: e.result.toolCalls,
      };
    default:
      return null;
  }
}
