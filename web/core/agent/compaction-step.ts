// One compaction inside a turn (automatic when the budget does not fit, or manual: `TurnInput.compact`), with its
// events: the summary call's `usage` (compact: true), then `compacted`, or `compaction-failed` when any part of the
// chain fails — in which case nothing is committed and the caller's history is untouched.
import { HarnessError, toErrorData } from '../contracts';
import { abortError, HookPipeline, transportHooksOf, type BudgetEstimate } from '../hooks';
import { createCompactModule } from '../modules';
import { DEFAULT_COMPACT_CONFIG } from '../modules';
import { MAX_COMPACT_FOCUS_CHARS } from '../modules';
import type { Message, PrepareInput, ToolSchema, UserMessage } from '../contracts';
import type { StepUsage } from '../contracts';
import { compactHistory, compactionError, headLength, type Compacted } from './compact';
import { requestMaxTokens } from './budget';
import { callModel } from './model-call';
import { contextSizeOf, estimateTokens, stepUsageOf } from './step-usage';
import type { AgentEvent, TurnDeps, TurnInput } from './types';
import { jsonProtocolMessages } from './json-actions';
import { nativeRequestHistory } from './native-marks';

export interface CompactionStep {
  input: TurnInput;
  deps: TurnDeps;
  signal: AbortSignal;
  step: number;
  history: Message[];
  /** Every tool schema the next request sends (the context size and the budget re-check count them). */
  tools: ToolSchema[];
  verdict: BudgetEstimate;
  /** The budget re-check of a candidate history. */
  check(messages: Message[]): BudgetEstimate;
  /** Loop events (usage, compacted, compaction-failed). */
  emit(e: AgentEvent): void;
  /** The summary call's stream events: shown, but never taken for the answer (a stop must not save them as one). */
  send(e: AgentEvent): void;
  /** Adds the summary call's provider usage to the turn's sum. */
  addUsage(u: StepUsage): void;
  manual?: { focus?: string };
}

/** A manual compaction's focus text, trimmed; empty means none. Too long is refused before anything runs. */
export function checkFocus(focus: string | undefined): string | undefined {
  const text = focus?.trim() ?? '';
  if (text.length > MAX_COMPACT_FOCUS_CHARS) {
    throw new HarnessError(
      'E_COMPACT_FOCUS_TOO_LONG',
      `The focus text has ${text.length} characters; the limit is ${MAX_COMPACT_FOCUS_CHARS}. Say in a sentence or two what the summary must keep.`,
      { length: text.length, limit: MAX_COMPACT_FOCUS_CHARS },
    );
  }
  return text === '' ? undefined : text;
}

/**
 * The pipeline whose compaction chain runs. A manual compaction without any compactor configured (the module
 * off in the profile or by compact.json, or no profile hooks) uses the default compactor with its defaults (keep_recent 4): the
 * person asked for it, and the default needs no capacity table. Automatic compaction never does this (seed 000 §7:
 * without a compaction plugin the core picks no cut).
 */
function compactionHooks(s: CompactionStep): HookPipeline {
  if (!s.manual || s.deps.hooks.has('compact_plan')) return s.deps.hooks;
  const fallback = new HookPipeline();
  fallback.register(
    createCompactModule({
      config: DEFAULT_COMPACT_CONFIG,
      ...(s.input.model.budget ? { budget: s.input.model.budget } : {}),
      name: 'compact (default, manual)',
    }),
  );
  return fallback;
}

/**
 * Runs the chain. Returns the compaction, or null when no compactor chose a cut. On failure (abort excepted) emits
 * `compaction-failed` and throws the error; the caller's history is never changed.
 */
export async function compactionStep(s: CompactionStep): Promise<Compacted | null> {
  const { input, deps, signal, step } = s;
  const budget = input.model.budget;
  let summaryUsage: StepUsage | undefined;
  const summarise = async (messages: Message[], prompt: UserMessage): Promise<{ text: string; usage?: StepUsage }> => {
    const call: PrepareInput = {
      version: 1,
      protocol: input.model.protocol,
      base_url: input.model.base_url,
      model: input.model.model,
      // The fixed head (system prompt, AGENTS.md) first, so the summary request reuses the cached prefix.
      // The folded part goes as the turn's requests show it: under the JSON action protocol as its projection (the
      // server may not know tool messages), natively with each tool result marked as untrusted data.
      history: [
        ...s.history.slice(0, headLength(s.history)),
        ...(input.model.tool_protocol === 'json' ? jsonProtocolMessages(messages) : nativeRequestHistory(messages)),
        prompt,
      ],
      max_tokens: requestMaxTokens(input.model), // the summary's output fits the reserve too (seed 002)
      compact: true,
      tools: [],
      plugin_tools: [],
      use_max_tokens: input.model.use_max_tokens,
      extra_body: input.model.extra_body,
      stream: true,
    };
    s.emit({ type: 'compacting', step, manual: input.compact !== undefined });
    const started = performance.now();
    const requestMeta = { step, compact: true, ...(deps.session ? { session: deps.session.path } : {}) };
    const outcome = await callModel(
      deps.stream,
      { input: call, hooks: transportHooksOf(deps.hooks, signal), requestMeta, signal },
      step,
      s.send,
    );
    if (!outcome.ok) throw new HarnessError(outcome.error.code, outcome.error.message, outcome.error.data);
    const response = outcome.result.parsed.response;
    const answer = response.choices[0]?.message ?? { role: 'assistant', content: null };
    summaryUsage = stepUsageOf({
      protocol: input.model.protocol,
      model: input.model.model,
      usage: response.usage,
      rawUsage: response.raw_usage,
      request: { messages: call.history, tools: [], imageTokens: budget?.image_tokens ?? 1600 },
      answer,
      durationMs: performance.now() - started,
    });
    s.addUsage(summaryUsage);
    const text = answer.content;
    if (typeof text !== 'string' || text.trim() === '')
      throw new HarnessError('E_COMPACT_EMPTY', 'The summary request returned no text. Nothing was compacted.');
    return { text, usage: summaryUsage };
  };
  const usageEvent = (history: Message[]) => {
    if (summaryUsage)
      s.emit({
        type: 'usage',
        step,
        usage: summaryUsage,
        context: contextSizeOf(budget, history, s.tools, null),
        compact: true,
      });
  };
  let compacted: Compacted | null;
  try {
    compacted = await compactHistory(s.history, s.verdict, {
      hooks: compactionHooks(s),
      signal,
      model: input.model.model,
      check: s.check,
      estimate: (messages) => estimateTokens(budget, messages, s.tools),
      summarise,
      ...(s.manual ? { manual: s.manual } : {}),
    });
  } catch (error) {
    if (signal.aborted || toErrorData(error).code === 'E_ABORTED') throw signal.aborted ? abortError() : error;
    usageEvent(s.history);
    const failure = compactionError(error);
    s.emit({ type: 'compaction-failed', step, error: failure });
    throw new HarnessError(failure.code, failure.message, failure.data);
  }
  if (compacted) {
    usageEvent(compacted.messages);
    s.emit({
      type: 'compacted',
      step,
      removed: compacted.removed,
      compaction: compacted.compaction,
      summary: compacted.summary,
    });
  }
  return compacted;
}
