// The turn in flight as the chat shows it until a checkpoint holds it: streamed text and thinking, this step's
// assistant messages, tool calls running and their results. A pure reducer over agent events, so the controller
// (and a following tab, through session-follow.ts) only stores what it returns.
import type { AssistantMessage } from '../../core/contracts';
import type { AgentEvent } from '../../core/page';
import type { ToolView } from './chat-model';

export interface LiveTurn {
  prompt: string;
  /** Images sent with the prompt (data URLs), shown in its bubble until the checkpoint holds them. */
  images?: string[];
  /** True once a checkpoint of this turn holds the prompt. */
  saved: boolean;
  /** A compaction-only turn (`/compact`), or `auto` while the budget's compaction writes its summary mid-turn. */
  compacting?: { focus?: string; auto?: true };
  thinking: string;
  text: string;
  /** Assistant messages of this turn that are not in a checkpoint yet (a batch in progress). */
  assistants: AssistantMessage[];
  results: Record<string, ToolView['result']>;
  running: Record<string, true>;
  /** The model call failed and is tried again at `retryAt` (epoch ms): the chat counts down to it. */
  retrying?: RetryNote;
}

export interface RetryNote {
  attempt: number;
  maxAttempts: number;
  retryAt: number;
  code: string;
  status?: number;
}

export const emptyLive = (prompt: string, images: string[] = []): LiveTurn => ({
  prompt,
  ...(images.length ? { images } : {}),
  saved: false,
  thinking: '',
  text: '',
  assistants: [],
  results: {},
  running: {},
});

/** The live turn after one event; the same object when the event changes nothing shown (no re-render). */
export function liveAfter(l: LiveTurn, event: AgentEvent): LiveTurn {
  switch (event.type) {
    case 'model': {
      const e = event.event;
      if (e.type === 'retry') {
        const { attempt, maxAttempts, retryAt, code, status } = e;
        return { ...l, retrying: { attempt, maxAttempts, retryAt, code, ...(status !== undefined ? { status } : {}) } };
      }
      // Anything else the call says means the retry was sent and is being answered.
      const now = l.retrying && e.type !== 'start' ? withoutRetry(l) : l;
      if (e.type === 'text-delta') return { ...now, text: now.text + e.delta };
      if (e.type === 'thinking-delta') return { ...now, thinking: now.thinking + e.delta };
      return now;
    }
    case 'step-start':
      return { ...withoutRetry(l), text: '', thinking: '' };
    case 'assistant':
      return { ...withoutRetry(l), text: '', thinking: '', assistants: [...l.assistants, event.message] };
    case 'tool-start':
      return { ...l, running: { ...l.running, [event.id]: true } };
    case 'tool-result':
      return {
        ...l,
        results: {
          ...l.results,
          [event.id]: { output: event.output, error: event.error, ...(event.code ? { code: event.code } : {}) },
        },
      };
    // A summary streams like an answer: shown under "Compacting…", never left in front of the answer that follows.
    case 'compacting':
      return { ...l, text: '', thinking: '', compacting: l.compacting ?? { auto: true } };
    case 'compacted':
    case 'compaction-failed': {
      const { compacting, ...rest } = l;
      return { ...rest, text: '', thinking: '', ...(compacting && !compacting.auto ? { compacting } : {}) };
    }
    default:
      return l;
  }
}

function withoutRetry(l: LiveTurn): LiveTurn {
  if (!l.retrying) return l;
  const { retrying: _done, ...rest } = l;
  return rest;
}

/** Tools that only read: a result of any other tool may have changed files (the Files panel refreshes). */
const READ_ONLY_TOOLS = new Set([
  'read',
  'list',
  'glob',
  'search',
  'view_image',
  'web_fetch',
  'read_result',
  'memory_read',
  'skill',
]);

export const changesFiles = (event: AgentEvent & { type: 'tool-result' }) =>
  !event.error && !READ_ONLY_TOOLS.has(event.name);
