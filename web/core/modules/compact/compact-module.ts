// The default compactor (seed 000 §7) as hook handlers. compact_plan picks the cut (planCut) when the budget says
// the history does not fit, or always for a manual compaction (`manual: true`); before_compact returns the summary prompt (the loop sends the summary request with
// no tools) after checking that request fits; after_compact requires a non-empty summary smaller than what it
// replaces by the same estimate; before_compact_commit restores the latest memory/skills full snapshot when the
// removed prefix held it, then checks the candidate is smaller and fits. Any failure throws: nothing is committed
// and the original history stays. A custom plugin later in the chain may answer before_compact with a local
// `summary` instead; the loop then sends no summary request.
import { HarnessError } from '../../contracts';
import type { BudgetSettings, HookDataMap, HookEvent, HookHandler } from '../../hooks';
import type { ContentPart, Message, UserMessage } from '../../contracts';
import { estimateMessages, budgetTrigger } from '../budget';
import { snapshotToRestore } from '../context';
import type { CompactConfig } from './compact-config';
import { DEFAULT_COMPACT_PROMPT, focusInstruction } from './default-prompt';
import { headLength, planCut } from './plan-cut';

export interface CompactModuleOptions {
  config: CompactConfig;
  /** Replacement prompt text (compact.json `prompt`, already read and checked). */
  promptText?: string;
  /** The budget the summary request and the compacted history must fit. Without it only the loop checks. */
  budget?: BudgetSettings;
  name?: string;
}

/** What the module carries along the chain in `state` (plain JSON, so bridge hooks may see it). */
export interface CompactState {
  module: 'compact';
  restore: UserMessage | null;
  system_estimate: number;
  history_estimate: number;
  prefix_estimate: number;
}

const isState = (s: unknown): s is CompactState =>
  typeof s === 'object' && s !== null && (s as CompactState).module === 'compact';

/** The summary message exactly as the loop builds it, for a comparable estimate. */
export const summaryMessage = (summary: string): UserMessage => ({
  role: 'user',
  content: `Summary of the earlier conversation:\n${summary}`,
  _meta: { kind: 'compaction_summary' },
});

function dropImages(messages: Message[]): Message[] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    const content: ContentPart[] = m.content.map((p) =>
      p.type === 'image_url' ? { type: 'text', text: '[image omitted from the summary]' } : p,
    );
    return { ...m, content };
  });
}

export function createCompactModule(o: CompactModuleOptions): HookHandler {
  const { config } = o;
  const prompt = o.promptText ?? DEFAULT_COMPACT_PROMPT;
  const imageTokens = o.budget?.image_tokens ?? 0;
  const est = (messages: readonly Message[]) => estimateMessages(messages, imageTokens);
  const trigger = o.budget ? budgetTrigger(o.budget) : Number.MAX_SAFE_INTEGER;

  function plan(data: HookDataMap['compact_plan']): HookDataMap['compact_plan'] {
    // A manual compaction (`/compact`, `i --compact`) folds now, whatever the budget says.
    if (data.cut !== null || (data.budget.fits && data.manual !== true)) return data;
    const cut = planCut(data.history, config.keep_recent);
    if (cut === null) return data;
    const first = headLength(data.history);
    const state: CompactState = {
      module: 'compact',
      restore: snapshotToRestore(data.history, data.history.slice(cut)),
      system_estimate: est(data.history.slice(0, first)),
      history_estimate: est(data.history),
      prefix_estimate: est(data.history.slice(first, cut)),
    };
    return { ...data, cut, state };
  }

  function before(data: HookDataMap['before_compact']): HookDataMap['before_compact'] {
    if (data.summary !== undefined || !isState(data.state)) return data;
    const messages = config.images === 'drop' ? dropImages(data.messages) : data.messages;
    // The core appends a manual compaction's focus line to the prompt: count it too.
    const focus =
      typeof data.policy.focus === 'string' && data.policy.focus !== '' ? focusInstruction(data.policy.focus) : '';
    const request = data.state.system_estimate + est(messages) + est([{ role: 'user', content: prompt + focus }]);
    if (request > trigger) {
      throw new HarnessError(
        'E_COMPACT_REQUEST_OVER_BUDGET',
        `The summary request itself (about ${request} tokens) exceeds the context budget (${trigger}); chunked summaries are not implemented. Nothing was compacted: start a new session.`,
        { estimate: request, trigger },
      );
    }
    return {
      ...data,
      messages,
      prompt,
      policy: { ...data.policy, keep_recent: config.keep_recent, images: config.images },
    };
  }

  function after(data: HookDataMap['after_compact']): HookDataMap['after_compact'] {
    if (!isState(data.state)) return data;
    if (data.summary.trim() === '')
      throw new HarnessError('E_COMPACT_EMPTY', 'The compaction summary is empty. Nothing was compacted.');
    const size = est([summaryMessage(data.summary)]);
    if (size >= data.state.prefix_estimate) {
      throw new HarnessError(
        'E_COMPACT_NOT_SMALLER',
        `The summary (about ${size} tokens) is not smaller than the messages it replaces (about ${data.state.prefix_estimate}). Nothing was compacted.`,
        {
          summary: size,
          prefix: data.state.prefix_estimate,
        },
      );
    }
    return data;
  }

  function commit(data: HookDataMap['before_compact_commit']): HookDataMap['before_compact_commit'] {
    if (!isState(data.state)) return data;
    let messages = data.messages;
    const restore = data.state.restore;
    // Cores that already put the snapshot back (agent/compact.ts does) get no second copy.
    if (restore && !messages.some((m) => m.role === 'user' && m._meta?.kind === 'context_snapshot')) {
      const at = messages.findIndex((m) => m.role === 'user' && m._meta?.kind === 'compaction_summary');
      const index = at >= 0 ? at + 1 : messages[0]?.role === 'system' ? 1 : 0;
      messages = [...messages.slice(0, index), restore, ...messages.slice(index)];
    }
    const size = est(messages);
    if (size >= data.state.history_estimate)
      throw new HarnessError(
        'E_COMPACT_NOT_SMALLER',
        `The compacted history (about ${size} tokens) is not smaller than the original (about ${data.state.history_estimate}). Nothing was compacted.`,
      );
    if (size > trigger)
      throw new HarnessError(
        'E_COMPACT_OVER_BUDGET',
        `The compacted history (about ${size} tokens) still exceeds the context budget (${trigger}). Nothing was compacted: start a new session.`,
      );
    return { ...data, messages };
  }

  return {
    name: o.name ?? 'compact',
    source: 'profile',
    events: ['compact_plan', 'before_compact', 'after_compact', 'before_compact_commit'],
    handle(event: HookEvent, data: unknown) {
      if (!config.enabled) return data;
      switch (event) {
        case 'compact_plan':
          return plan(data as HookDataMap['compact_plan']);
        case 'before_compact':
          return before(data as HookDataMap['before_compact']);
        case 'after_compact':
          return after(data as HookDataMap['after_compact']);
        case 'before_compact_commit':
          return commit(data as HookDataMap['before_compact_commit']);
        default:
          return data;
      }
    },
  };
}
