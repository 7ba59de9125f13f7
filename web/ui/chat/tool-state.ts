// What a tool card says about a call: its state (pure, so it is unit-tested in Node) and a short duration.
import type { ChatKey } from './chat-i18n';
import type { ToolView } from './chat-model';

const REFUSED = new Set(['E_TOOL_REJECTED', 'E_APPROVAL_REQUIRED', 'E_TOOL_DENIED']);

export type ToolState = 'done' | 'failed' | 'refused' | 'running' | 'waiting' | 'queued' | 'stopped';

/** The call's state as the card shows it. `live`: the call belongs to the turn in flight. */
export function toolState(tool: ToolView, running: boolean, waiting: boolean, live: boolean): ToolState {
  const r = tool.result;
  if (r) return !r.error ? 'done' : r.code && REFUSED.has(r.code) ? 'refused' : 'failed';
  if (waiting) return 'waiting';
  if (running) return 'running';
  return live ? 'queued' : 'stopped';
}

export const STATE_KEY: Record<ToolState, ChatKey> = {
  done: 'tool.done',
  failed: 'tool.failed',
  refused: 'tool.refused',
  running: 'tool.running',
  waiting: 'tool.waiting',
  queued: 'tool.queued',
  stopped: 'tool.stopped',
};

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(1, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
