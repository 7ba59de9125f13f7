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

/** A page of a long tool result shown at a time: the DOM never holds megabytes of one result at once. */
export const RESULT_PAGE_CHARS = 64 * 1024;

/** Where the page that starts at `from` ends: `size` characters on, moved back so it never splits a surrogate pair. */
export function pageEnd(text: string, from: number, size = RESULT_PAGE_CHARS): number {
  const end = from + size;
  if (end >= text.length) return text.length;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/**
 * What the model saw of a result whose whole text the log keeps: a bounded view's preview and reference
 * (`[result truncated: 512 of 10000 bytes shown. …]`), or a result the context budget cut (`[output truncated: 900
 * of 10000 bytes left out by the context budget]`); null when the note is neither.
 */
export function previewFigures(
  modelView: string,
): { kind: 'reference'; shown: number; total: number } | { kind: 'budget'; left: number; total: number } | null {
  const ref = /\[result truncated: (\d+) of (\d+) bytes shown/.exec(modelView);
  if (ref) return { kind: 'reference', shown: Number(ref[1]), total: Number(ref[2]) };
  const cut = /\[output truncated: (\d+) of (\d+) bytes left out by the context budget\]/.exec(modelView);
  return cut ? { kind: 'budget', left: Number(cut[1]), total: Number(cut[2]) } : null;
}

/** A byte or character count said short: 812, 12.4 K, 3.1 M. */
export function formatSize(n: number): string {
  if (n < 1024) return String(n);
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} K`;
  return `${(n / 1024 / 1024).toFixed(1)} M`;
}
