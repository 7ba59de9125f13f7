// The pure side of "Rewind to here" and the chat's undo events (issue 16): which files a rewind from a prompt would
// put back (for the dialog, before anything runs), and where an event line (a rewind, a revert, a redo) sits in the
// conversation. Events are anchored to the turn they followed (the `_turn` id of the last prompt before them), not to
// a message index: a later rewind, regenerate or compaction changes indices but never a turn's id.
import type { FileChange, SessionChanges } from '../../core/page';
import type { RewindMode } from '../../core/page';
import type { Message } from '../../core/contracts';

/** A prompt the person typed (the harness's own user messages carry `_meta`). */
export const isPrompt = (m: Message | undefined): m is Message & { role: 'user' } =>
  m?.role === 'user' && m._meta === undefined;

/**
 * The files a rewind from the prompt at `index` would put back: every file with a live change from the first turn
 * that wrote something from this prompt on. Turns are numbered by the undo core, so the first one is found through
 * the tool calls the conversation holds after the prompt (each write row names its call). The Worker decides the
 * real set; this is what the dialog announces.
 */
export function rewindPreview(
  messages: readonly Message[],
  index: number,
  changes: SessionChanges | null,
): FileChange[] {
  if (!changes) return [];
  const calls = new Set<string>();
  for (const m of messages.slice(index + 1))
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) calls.add(c.id);
  const turns = changes.rows.filter((r) => calls.has(r.callId)).map((r) => r.turn);
  if (turns.length === 0) return [];
  const first = Math.min(...turns);
  return changes.files.filter((f) => f.turns.some((t) => t >= first));
}

export type UndoEvent =
  | {
      kind: 'rewind';
      id: string;
      at: number;
      anchor: string | null;
      mode: RewindMode;
      prompt: string;
      files: number;
      group?: string;
    }
  | {
      kind: 'revert' | 'redo';
      id: string;
      at: number;
      anchor: string | null;
      files: number;
      path?: string;
      group: string;
    };

/**
 * The `_turn` id of the last prompt in the conversation; null when there is none yet. A prompt sent before turns had
 * ids is named by its index (`@12`), the best there is for it.
 */
export function anchorOf(messages: readonly Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isPrompt(m)) return m._turn ?? `@${i}`;
  }
  return null;
}

/**
 * Where each event shows: before the prompt (its message index) that follows the anchored turn, or 'end'. An event
 * anchored to no turn sits before the first prompt. An event whose turn is no longer in the conversation (rewound
 * away, or folded by a compaction) is not shown: what it followed is gone.
 */
export function placeEvents(
  messages: readonly Message[],
  events: readonly UndoEvent[],
): Map<number | 'end', UndoEvent[]> {
  const prompts: number[] = [];
  messages.forEach((m, i) => isPrompt(m) && prompts.push(i));
  const out = new Map<number | 'end', UndoEvent[]>();
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    let at: number | 'end' | undefined;
    if (e.anchor === null) at = prompts[0] ?? 'end';
    else {
      const byIndex = e.anchor.startsWith('@') ? Number(e.anchor.slice(1)) : null;
      const p = prompts.findIndex((i) =>
        byIndex !== null
          ? i === byIndex && (messages[i] as { _turn?: string })._turn === undefined
          : (messages[i] as { _turn?: string })._turn === e.anchor,
      );
      if (p >= 0) at = prompts[p + 1] ?? 'end';
    }
    if (at === undefined) continue;
    out.set(at, [...(out.get(at) ?? []), e]);
  }
  return out;
}

/** How many events a session keeps (the oldest go first): the log stays small whatever happens. */
export const MAX_EVENTS = 200;

const MODES: readonly string[] = ['both', 'files', 'conversation'];
const str = (v: unknown): v is string => typeof v === 'string';
const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Stored events come from IndexedDB (data, not code): a malformed one is dropped, never shown half. */
export function validEvents(value: unknown): UndoEvent[] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is UndoEvent => {
    if (!e || typeof e !== 'object') return false;
    const r = e as Record<string, unknown>;
    if (!str(r.id) || typeof r.at !== 'number' || !(r.anchor === null || str(r.anchor)) || !count(r.files))
      return false;
    if (r.kind === 'rewind')
      return MODES.includes(r.mode as string) && str(r.prompt) && (r.group === undefined || str(r.group));
    return (r.kind === 'revert' || r.kind === 'redo') && str(r.group) && (r.path === undefined || str(r.path));
  });
}

/** A prompt as a short quote for an event line (one line, at most `max` characters, never splitting a pair). */
export function quote(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : line;
}
