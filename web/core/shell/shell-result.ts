// The text a finished command gives the model: one status line, the undo line, the output line, then the output
// itself (stdout and stderr merged in arrival order). The loop's bounded view (seed 002) shows a long result as a
// preview plus a reference; seed 002 lets a view keep only a prefix, so the output line names the byte offset where
// the output's last SHELL_TAIL_HINT_BYTES start, and the model reads the end (where failures usually are) with one
// read_result call at that offset.
import { DEFAULT_KEEP_WHOLE_BYTES, isCharBoundary, utf8Length } from '../context';
import type { CommandChangeSummary, ToolResult } from '../contracts';
import { SHELL_TAIL_HINT_BYTES } from './limits';
import type { ShellExit } from './types';

/** What the undo history made of a command: its summary, why it could not record it, or nothing (no recording). */
export type UndoOutcome =
  | { kind: 'recorded'; summary: CommandChangeSummary }
  | { kind: 'untracked'; code: string; message: string }
  | { kind: 'failed'; code: string; message: string };

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** The first line: how the command ended. */
export function statusLine(exit: ShellExit, timeoutMs: number | null): string {
  const took = seconds(exit.durationMs);
  switch (exit.ended) {
    case 'exit':
      return exit.signal ? `killed by ${exit.signal} after ${took}` : `exit ${exit.exitCode ?? '?'} after ${took}`;
    case 'timeout':
      return `timed out after ${seconds(timeoutMs ?? exit.durationMs)}: the command and every process it started were stopped (SIGTERM, then SIGKILL)`;
    case 'stopped':
      return `stopped after ${took} (the command and every process it started)`;
    case 'aborted':
      return `stopped after ${took}: the turn was interrupted`;
    case 'failed':
      return `could not start: ${exit.error ?? 'unknown error'}`;
  }
}

/** The undo line, or '' when the host records nothing for commands. */
export function undoLine(undo: UndoOutcome | undefined): string {
  if (!undo) return '';
  if (undo.kind === 'untracked') return `undo: not recorded (${undo.code}): ${undo.message}`;
  if (undo.kind === 'failed') return `undo: recording the changes failed (${undo.code}): ${undo.message}`;
  const s = undo.summary;
  const counts = `${s.created.length} created, ${s.modified.length} modified, ${s.deleted.length} deleted`;
  const none = s.created.length + s.modified.length + s.deleted.length === 0;
  return `undo: ${none ? 'no file changed' : `${counts} (recorded; --revert puts them back)`}${s.note ? `; ${s.note}` : ''}`;
}

/** Codes of results that are errors (the command did not run to its own end). */
const ERROR_CODES: Partial<Record<ShellExit['ended'], string>> = {
  timeout: 'E_SHELL_TIMEOUT',
  aborted: 'E_ABORTED',
  failed: 'E_SHELL_START_FAILED',
};

/**
 * The result of a finished command. `heading` lines come first (status, undo, notes); `output` is the held text,
 * `total` every byte the command printed and `dropped` the bytes not held.
 */
export function shellResult(o: {
  exit: ShellExit;
  timeoutMs: number | null;
  undo?: UndoOutcome;
  notes?: string[];
  output: string;
  total: number;
  dropped: number;
}): ToolResult {
  const lines = [statusLine(o.exit, o.timeoutMs), undoLine(o.undo), ...(o.exit.notes ?? []), ...(o.notes ?? [])];
  const text = composeOutput(lines.filter(Boolean), o.output, o.total, o.dropped);
  const code = ERROR_CODES[o.exit.ended];
  return code ? { output: text, error: true, code } : { output: text };
}

/** The heading lines, the output line and the output; for a long output the line names where its tail starts. */
export function composeOutput(heading: string[], output: string, total: number, dropped: number): string {
  const kept = dropped ? `; the middle ${dropped} bytes were not kept` : '';
  const base = `output (stdout and stderr merged, ${total} bytes${kept})`;
  if (output === '') return [...heading, `${base}: none`].join('\n');
  const outputBytes = utf8Length(output);
  const plain = `${[...heading, `${base}:`].join('\n')}\n${output}`;
  if (utf8Length(plain) <= DEFAULT_KEEP_WHOLE_BYTES || outputBytes <= 2 * SHELL_TAIL_HINT_BYTES) return plain;
  // Where the tail starts in the whole result: the offset's own digits change the heading's length, so settle it.
  const bytes = new TextEncoder().encode(output);
  let start = bytes.length - SHELL_TAIL_HINT_BYTES;
  while (start < bytes.length && !isCharBoundary(bytes, start)) start++;
  let offset = 0;
  for (let i = 0; i < 3; i++) {
    const head = `${[...heading, `${base}; its last ${bytes.length - start} bytes start at offset ${offset} (read_result):`].join('\n')}\n`;
    const next = utf8Length(head) + start;
    if (next === offset) return `${head}${output}`;
    offset = next;
  }
  return `${[...heading, `${base}; its last ${bytes.length - start} bytes start at offset ${offset} (read_result):`].join('\n')}\n${output}`;
}
