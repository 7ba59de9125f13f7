// The agent loop: one turn of seed 000 §6 / ARCHITECTURE.md "one turn". A plain function over injected ports;
// it never throws: every failure ends the turn as data (`stopReason` 'error' | 'aborted' | ...), and the
// returned stream always ends with exactly one `done` or `error` event.
import { HarnessError, toErrorData, type ErrorData } from '../errors';
import { abortError, transportHooksOf, type BudgetEstimate } from '../hooks';
import type { AssistantMessage, Message, PrepareInput, ToolSchema, Usage, UserMessage } from '../providers/types';
import { contextMessagesToAppend } from '../modules/context';
import { loadProjectInstructions, resolveSystemPrompt } from '../modules/prompts';
import { isConsistent } from '../sessions/validate-history';
import { EventStream } from '../util';
import { validateBatch } from './batch';
import { anchorFrom, DEFAULT_BUDGET, estimateBudget, UNBUDGETED, type UsageAnchor } from './budget';
import { compactHistory, headLength } from './compact';
import { callModel } from './model-call';
import { runBatch } from './run-tools';
import type { AgentEvent, StopReason, ToolCallRecord, TurnDeps, TurnInput, TurnResult } from './types';

export const DEFAULT_MAX_STEPS = 50;

/** Starts one turn. Consume the events with `for await`, or just `await stream.result()`. */
export function runTurn(input: TurnInput, deps: TurnDeps): EventStream<AgentEvent, TurnResult> {
  const out = new EventStream<AgentEvent, TurnResult>();
  void turn(input, deps, (e) => out.push(e)).then((result) => {
    out.push(result.error ? { type: 'error', error: result.error, result } : { type: 'done', result });
    out.end(result);
  });
  return out;
}

class Stop extends Error {
  constructor(
    readonly reason: StopReason,
    readonly error?: ErrorData,
  ) {
    super(reason);
  }
}

async function turn(input: TurnInput, deps: TurnDeps, send: (e: AgentEvent) => void): Promise<TurnResult> {
  /** What the model streamed in the current step, kept so a stop mid-answer saves it (nothing shown is lost). */
  const streamed = { text: '', thinking: '' };
  const emit = (e: AgentEvent) => {
    // Each model call starts afresh (a compaction summary streams through here too, before the answer).
    if (e.type === 'step-start' || e.type === 'assistant' || (e.type === 'model' && e.event.type === 'start')) streamed.text = streamed.thinking = '';
    else if (e.type === 'model' && e.event.type === 'text-delta') streamed.text += e.event.delta;
    else if (e.type === 'model' && e.event.type === 'thinking-delta') streamed.thinking += e.event.delta;
    send(e);
  };
  const signal = deps.signal ?? new AbortController().signal;
  const ctx = { signal };
  const hooks = deps.hooks;
  const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
  const records: ToolCallRecord[] = [];
  const usage: Usage = {};
  let history: Message[] = [...input.history];
  let step = 0;
  let anchor: UsageAnchor | null = null;
  /** The latest assistant message of THIS turn (a resumed history's old answers never count as this turn's). */
  let lastAssistant: AssistantMessage | undefined;
  const budgetSettings = input.model.budget ? { ...DEFAULT_BUDGET, ...input.model.budget } : null;

  const abortIfNeeded = () => {
    if (signal.aborted) throw new Stop('aborted', abortError().toJSON());
  };
  const checkpoint = async () => {
    if (!deps.session) return;
    const path = deps.session.path;
    let messages = history;
    if (hooks.has('before_save')) messages = (await hooks.run('before_save', { messages, path }, ctx)).messages;
    await deps.session.save(messages);
    // What was saved is the history from now on (a before_save module may have normalised it).
    history = messages;
    emit({ type: 'checkpoint', step, messages: messages.length, path });
    if (hooks.has('after_save')) {
      try {
        await hooks.run('after_save', { messages, path }, ctx);
      } catch (error) {
        // The checkpoint stands; after_save is a confirmation (types.ts contract).
        emit({ type: 'warning', step, error: toErrorData(error) });
      }
    }
  };
  const budgetOf = (messages: Message[], tools: ToolSchema[], pending: number): BudgetEstimate =>
    budgetSettings ? estimateBudget(budgetSettings, messages, tools, pending, anchor) : UNBUDGETED;

  const finishWith = async (stopReason: StopReason, error?: ErrorData): Promise<TurnResult> => {
    const last = lastAssistant;
    const result: TurnResult = { stopReason, messages: history, text: typeof last?.content === 'string' ? last.content : '', steps: step, toolCalls: records, usage, ...(error ? { error } : {}) };
    if (hooks.has('finish')) {
      try {
        await hooks.run('finish', { messages: history, stop_reason: stopReason }, { signal: new AbortController().signal });
      } catch (e) {
        emit({ type: 'warning', step, error: toErrorData(e) });
      }
    }
    return result;
  };

  emit({ type: 'turn-start', session: deps.session?.path ?? null });
  try {
    abortIfNeeded();
    if (!history.some((m) => m.role === 'system')) {
      // A new session: the system prompt (the embedded default with the workspace's name, unless the caller
      // resolved another), then AGENTS.md as workspace content. Both stay fixed for the whole session.
      let prompt = input.systemPrompt ?? resolveSystemPrompt({ workspace: deps.fs.rootName });
      if (hooks.has('system_prompt')) prompt = (await hooks.run('system_prompt', { prompt }, ctx)).prompt;
      const head: Message[] = [{ role: 'system', content: prompt }];
      try {
        const instructions = await loadProjectInstructions(deps.fs);
        if (instructions) head.push(instructions);
      } catch (error) {
        // An unreadable or oversized AGENTS.md leaves the project instructions out, said once; the turn goes on.
        emit({ type: 'warning', step, error: toErrorData(error, 'E_AGENTS_MD_UNREADABLE') });
      }
      history.unshift(...head);
    }
    await syncContext();
    let content = input.content;
    if (hooks.has('user_input')) content = (await hooks.run('user_input', { content }, ctx)).content;
    const userMessage: UserMessage = { role: 'user', content };
    history.push(userMessage);
    if (hooks.has('before_turn')) history = [...(await hooks.run('before_turn', { messages: history }, ctx)).messages];

    const tools = deps.tools.schemas((d) => !d.external);
    const pluginTools = deps.tools.schemas((d) => d.external);
    const allTools = [...tools, ...pluginTools];

    for (;;) {
      abortIfNeeded();
      if (step >= maxSteps) {
        throw new Stop('step_limit', { code: 'E_STEP_LIMIT', message: `The turn stopped after ${maxSteps} model calls without finishing. Continue with a new prompt, or raise the step limit.` });
      }
      step++;
      emit({ type: 'step-start', step });
      // Memory/skills changed by this turn's tools reach the model as a delta before the next request.
      if (step > 1) await syncContext();

      // context_budget: the default verdict, then any budget module; not fitting → compaction seam or stop.
      let verdict = budgetOf(history, allTools, 0);
      if (hooks.has('context_budget')) {
        const data = await hooks.run('context_budget', { model: input.model.model, budget: budgetSettings, history, tools: allTools, pending_calls: 0, compact: false, result: verdict }, ctx);
        verdict = data.result;
      }
      if (!verdict.fits) {
        const compacted = await compactHistory(history, verdict, {
          hooks,
          signal,
          model: input.model.model,
          check: (messages) => budgetOf(messages, allTools, 0),
          summarise: (messages, prompt) => summarise(messages, prompt),
        });
        if (!compacted) {
          throw new Stop('budget', {
            code: 'E_CONTEXT_BUDGET',
            message: `The conversation (about ${verdict.estimate} tokens) exceeds the context budget (${verdict.trigger}). Start a new session, or enable a compaction module.`,
            data: { estimate: verdict.estimate, trigger: verdict.trigger },
          });
        }
        history = compacted.messages;
        anchor = null;
        emit({ type: 'compacted', step, removed: compacted.removed });
      }

      const prepare: PrepareInput = {
        version: 1,
        protocol: input.model.protocol,
        base_url: input.model.base_url,
        model: input.model.model,
        history,
        max_tokens: input.model.max_tokens,
        compact: false,
        tools,
        plugin_tools: pluginTools,
        use_max_tokens: input.model.use_max_tokens,
        extra_body: input.model.extra_body,
        stream: true,
      };
      const outcome = await callModel(deps.stream, { input: prepare, hooks: transportHooksOf(hooks, signal), requestMeta: { step, ...(deps.session ? { session: deps.session.path } : {}) }, signal }, step, emit);
      abortIfNeeded();
      if (!outcome.ok) throw new Stop(outcome.error.code === 'E_ABORTED' ? 'aborted' : 'error', outcome.error);
      const choice = outcome.result.parsed.response.choices[0];
      if (!choice) throw new Stop('error', { code: 'E_MODEL_EMPTY', message: 'The model returned no choice. Try again; if it repeats, check the provider.' });
      addUsage(usage, outcome.result.parsed.response.usage);
      const message: AssistantMessage = { ...choice.message, role: 'assistant', _provider: { protocol: input.model.protocol, model: input.model.model } };
      const finishReason = choice.finish_reason;
      emit({ type: 'assistant', step, message, finishReason });
      lastAssistant = message;

      const hasCalls = (message.tool_calls?.length ?? 0) > 0;
      if (!hasCalls) {
        history.push(message);
        await checkpoint();
        if (finishReason === 'tool_calls') {
          // Claimed tool calls but sent none: tell the model and let it try again within the step limit.
          history.push({ role: 'user', content: 'Your response ended with finish reason "tool_calls" but contained no tool call. Continue.', _meta: { kind: 'batch_error' } });
          continue;
        }
        const known: readonly string[] = ['stop', 'length', 'content_filter', 'incomplete'];
        const reason = (known.includes(finishReason) ? finishReason : 'stop') as StopReason;
        return await finishWith(reason);
      }
      anchor = anchorFrom(outcome.result.parsed.response.usage, [...history, message]);

      const batch = validateBatch(message, finishReason, deps.tools);
      if (!batch.ok) {
        emit({ type: 'batch-invalid', step, errors: batch.problems.map((p) => ({ index: p.index, id: p.id, message: p.message })) });
        const text = `No tool ran: the tool-call batch is invalid. ${batch.problems.map((p) => p.message).join('; ')}. Send the calls again, corrected.`;
        if (batch.idsUsable) {
          history.push(message);
          for (const call of message.tool_calls ?? []) {
            history.push({ role: 'tool', tool_call_id: call.id, content: `Error E_TOOL_BATCH_INVALID: ${text}`, _error: true });
            records.push({ id: call.id, name: String(call.function?.name), step, ran: false, error: true, code: 'E_TOOL_BATCH_INVALID' });
          }
        } else {
          // Calls without usable ids cannot be answered; keep the text, drop the calls and any replay state.
          const { tool_calls: _calls, _anthropic_content: _a, _responses_output: _r, ...rest } = message;
          history.push({ ...rest, content: message.content ?? '' });
          history.push({ role: 'user', content: `Error E_TOOL_BATCH_INVALID: ${text}`, _meta: { kind: 'batch_error' } });
        }
        await checkpoint();
        continue;
      }

      history.push(message);
      // The per-call tool budget: the budget module answers it with the number of pending calls (seed 000 §7).
      let budgetNow = budgetOf(history, allTools, batch.calls.length);
      if (hooks.has('context_budget')) {
        budgetNow = (await hooks.run('context_budget', { model: input.model.model, budget: budgetSettings, history, tools: allTools, pending_calls: batch.calls.length, compact: false, result: budgetNow }, ctx)).result;
      }
      const ran = await runBatch(batch.calls, step, deps, signal, budgetNow.tool_budget, emit);
      records.push(...ran.records);
      history.push(...ran.messages);
      await checkpoint();
      abortIfNeeded();
    }
  } catch (error) {
    const stop =
      error instanceof Stop
        ? error
        : signal.aborted
          ? new Stop('aborted', abortError().toJSON())
          : new Stop('error', toErrorData(error, 'E_TURN_FAILED'));
    // A stop while the model was answering keeps the answer so far, marked as stopped (the next turn can continue it).
    if (stop.reason === 'aborted' && (streamed.text || streamed.thinking) && isConsistent(history)) {
      history.push({ role: 'assistant', content: streamed.text, _provider: { protocol: input.model.protocol, model: input.model.model }, _stopped: streamed.thinking ? { thinking: streamed.thinking } : {} });
    }
    // Keep what is valid: a stop between steps leaves a consistent history; save it unless nothing changed.
    if (deps.session && stop.reason !== 'error' && isConsistent(history)) {
      try {
        await checkpoint();
      } catch (e) {
        emit({ type: 'warning', step, error: toErrorData(e) });
      }
    }
    return finishWith(stop.reason, stop.error);
  }

  /**
   * Appends the memory/skills snapshot (first time) or a delta (when something changed) to the history; never
   * touches earlier messages (seed 000 §9). No `deps.context`: nothing is injected. A failing state read is a
   * warning and leaves the model's view as it was.
   */
  async function syncContext(): Promise<void> {
    if (!deps.context) return;
    let added: Message[];
    try {
      added = contextMessagesToAppend(history, await deps.context());
    } catch (error) {
      emit({ type: 'warning', step, error: toErrorData(error, 'E_CONTEXT_STATE_FAILED') });
      return;
    }
    abortIfNeeded();
    if (added.length > 0) history = [...history, ...added];
  }

  async function summarise(messages: Message[], prompt: UserMessage): Promise<string> {
    const call: PrepareInput = {
      version: 1,
      protocol: input.model.protocol,
      base_url: input.model.base_url,
      model: input.model.model,
      // The fixed head (system prompt, AGENTS.md) first, so the summary request reuses the cached prefix.
      history: [...history.slice(0, headLength(history)), ...messages, prompt],
      max_tokens: input.model.max_tokens,
      compact: true,
      tools: [],
      plugin_tools: [],
      use_max_tokens: input.model.use_max_tokens,
      extra_body: input.model.extra_body,
      stream: true,
    };
    // The summary's text is not the answer: a stop meanwhile must not save it as one (the events still go out).
    const outcome = await callModel(deps.stream, { input: call, hooks: transportHooksOf(hooks, signal), requestMeta: { step, compact: true, ...(deps.session ? { session: deps.session.path } : {}) }, signal }, step, send);
    if (!outcome.ok) throw new HarnessError(outcome.error.code, outcome.error.message, outcome.error.data);
    const text = outcome.result.parsed.response.choices[0]?.message.content;
    if (typeof text !== 'string' || text.trim() === '') throw new HarnessError('E_COMPACT_EMPTY', 'The summary request returned no text. Nothing was compacted.');
    return text;
  }
}

function addUsage(total: Usage, u: Usage | undefined): void {
  if (!u) return;
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const) {
    const v = u[key];
    if (typeof v === 'number' && Number.isFinite(v)) total[key] = (total[key] ?? 0) + v;
  }
}
