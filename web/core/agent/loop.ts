// The agent loop: one turn of seed 000 §6 / ARCHITECTURE.md "one turn". A plain function over injected ports;
// it never throws: every failure ends the turn as data (`stopReason` 'error' | 'aborted' | ...), and the
// returned stream always ends with exactly one `done` or `error` event.
import { toErrorData, type ErrorData } from '../errors';
import { abortError, transportHooksOf, type BudgetEstimate } from '../hooks';
import type { AssistantMessage, Message, PrepareInput, ToolSchema, Usage, UserMessage } from '../providers/types';
import { contextMessagesToAppend } from '../modules/context';
import { loadProjectInstructions, resolveSystemPrompt } from '../modules/prompts';
import { isConsistent } from '../sessions/validate-history';
import { selectToolView } from '../tool-views';
import { EventStream } from '../util';
import { validateBatch } from './batch';
import { anchorFrom, DEFAULT_BUDGET, estimateBudget, requestMaxTokens, UNBUDGETED, type UsageAnchor } from './budget';
import { checkFocus, compactionStep } from './compaction-step';
import { jsonAnswer, jsonRequestHistory } from './json-actions';
import { nativeRequestHistory } from './native-marks';
import { callModel } from './model-call';
import { runBatch } from './run-tools';
import { anchorUsage, nextContextSize, stepUsageOf } from './step-usage';
import type { StepUsage } from '../usage/types';
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
  /** Provider notices already said this turn (they would repeat on every request of the turn). */
  const noticed = new Set<string>();
  const usage: Usage = {};
  let history: Message[] = [...input.history];
  let step = 0;
  let anchor: UsageAnchor | null = null;
  /** The latest assistant message of THIS turn (a resumed history's old answers never count as this turn's). */
  let lastAssistant: AssistantMessage | undefined;
  const budgetSettings = input.model.budget ? { ...DEFAULT_BUDGET, ...input.model.budget } : null;
  // The JSON action protocol (json-actions/): the schemas travel as text in the request, never as `tools`.
  const json = input.model.tool_protocol === 'json';
  /** What one request carries, as the budget counts it and as it is sent (nothing is added after counting). */
  // Native requests mark each tool result as untrusted data (native-marks.ts); JSON requests carry the envelope.
  const requestFor = (messages: Message[], tools: ToolSchema[]) => (json ? { messages: jsonRequestHistory(messages, tools), tools: [] as ToolSchema[] } : { messages: nativeRequestHistory(messages), tools });
  /** The answer request in flight (what was sent, when): a stopped answer's usage is estimated from it. */
  let inFlight: { started: number; messages: Message[]; tools: ToolSchema[] } | null = null;

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
    if (input.compact) return await compactOnly(input.compact);
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
    const userMessage: UserMessage = { role: 'user', content, ...(input.turnId !== undefined ? { _turn: input.turnId } : {}) };
    history.push(userMessage);
    if (hooks.has('before_turn')) history = [...(await hooks.run('before_turn', { messages: history }, ctx)).messages];

    // The tool view (seed 002): the selected, limit-checked tools; an invalid view stops the turn before any request.
    const { tools, pluginTools } = selectToolView(deps.tools, deps.toolView);
    const allTools = [...tools, ...pluginTools];
    const toolNames = new Set(allTools.map((t) => t.name));
    const requestOf = (messages: Message[]) => requestFor(messages, allTools);

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
      let request = requestOf(history);
      let verdict = budgetOf(request.messages, request.tools, 0);
      if (hooks.has('context_budget')) {
        const data = await hooks.run('context_budget', { model: input.model.model, budget: budgetSettings, history: request.messages, tools: request.tools, pending_calls: 0, compact: false, result: verdict }, ctx);
        verdict = data.result;
      }
      if (!verdict.fits) {
        const compacted = await compact(verdict, allTools);
        if (!compacted) {
          throw new Stop('budget', {
            code: 'E_CONTEXT_BUDGET',
            message: `The conversation (about ${verdict.estimate} tokens) exceeds the context budget (${verdict.trigger}). Start a new session, or enable a compaction module.`,
            data: { estimate: verdict.estimate, trigger: verdict.trigger },
          });
        }
        history = compacted;
        anchor = null;
        // Saved at once: the log records the fold the person was just shown, even if the answer then fails.
        await checkpoint();
        request = requestOf(history);
      }

      const prepare: PrepareInput = {
        version: 1,
        protocol: input.model.protocol,
        base_url: input.model.base_url,
        model: input.model.model,
        history: request.messages,
        max_tokens: requestMaxTokens(input.model), // tightened to budget.output_reserve (seed 002)
        compact: false,
        tools: json ? [] : tools,
        plugin_tools: json ? [] : pluginTools,
        use_max_tokens: input.model.use_max_tokens,
        extra_body: input.model.extra_body,
        stream: true,
      };
      inFlight = { started: performance.now(), messages: request.messages, tools: request.tools };
      const outcome = await callModel(deps.stream, { input: prepare, hooks: transportHooksOf(hooks, signal), requestMeta: { step, ...(deps.session ? { session: deps.session.path } : {}) }, signal }, step, emit);
      abortIfNeeded();
      if (!outcome.ok) throw new Stop(outcome.error.code === 'E_ABORTED' ? 'aborted' : 'error', outcome.error);
      // What the provider adapter said about this request (e.g. N_REPLAY_NOT_LOSSLESS after a protocol switch): once a turn.
      for (const notice of outcome.result.notices ?? []) {
        if (noticed.has(notice.code)) continue;
        noticed.add(notice.code);
        emit({ type: 'warning', step, error: { code: notice.code, message: notice.message } });
      }
      const response = outcome.result.parsed.response;
      const choice = response.choices[0];
      if (!choice) throw new Stop('error', { code: 'E_MODEL_EMPTY', message: 'The model returned no choice. Try again; if it repeats, check the provider.' });
      let answer: AssistantMessage = { ...choice.message, role: 'assistant', _provider: { protocol: input.model.protocol, model: input.model.model } };
      let finishReason = choice.finish_reason;
      const acted = json ? jsonAnswer(answer, finishReason, toolNames, () => `json_${step}_${crypto.randomUUID().slice(0, 8)}`) : null;
      if (acted) ({ message: answer, finishReason } = acted);
      const stepUsage = usageOf(answer, response.usage, response.raw_usage);
      addUsage(usage, stepUsage);
      inFlight = null;
      // Stamped before anything saves it, so the session log keeps what every answer cost.
      const message: AssistantMessage = { ...answer, _usage: stepUsage };
      emit({ type: 'assistant', step, message, finishReason });
      lastAssistant = message;
      anchor = anchorFrom(anchorUsage(stepUsage), [...history, message]);
      emit({ type: 'usage', step, usage: stepUsage, context: nextContextSize(budgetSettings, stepUsage, history, message, allTools, anchor) });

      if (acted?.kind === 'malformed') {
        // Not an action: the model is told why in the result envelope and tries again within the step limit.
        emit({ type: 'warning', step, error: { code: acted.code, message: acted.error } });
        history.push(message, { role: 'user', content: acted.envelope, _meta: { kind: 'json_protocol_error', code: acted.code } });
        await checkpoint();
        continue;
      }
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
      const pending = requestOf(history);
      let budgetNow = budgetOf(pending.messages, pending.tools, batch.calls.length);
      if (hooks.has('context_budget')) {
        budgetNow = (await hooks.run('context_budget', { model: input.model.model, budget: budgetSettings, history: pending.messages, tools: pending.tools, pending_calls: batch.calls.length, compact: false, result: budgetNow }, ctx)).result;
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
      const stopped: AssistantMessage = { role: 'assistant', content: streamed.text, _provider: { protocol: input.model.protocol, model: input.model.model }, _stopped: streamed.thinking ? { thinking: streamed.thinking } : {} };
      // What is known of a stopped call: no provider figures, so estimates of what was sent and streamed.
      history.push(inFlight ? { ...stopped, _usage: usageOf(stopped, undefined, undefined) } : stopped);
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

  function usageOf(answer: AssistantMessage, reported: Usage | undefined, raw: unknown) {
    const sent = inFlight ?? { started: performance.now(), messages: history, tools: [] };
    return stepUsageOf({
      protocol: input.model.protocol,
      model: input.model.model,
      usage: reported,
      rawUsage: raw,
      request: { messages: sent.messages, tools: sent.tools, imageTokens: budgetSettings?.image_tokens ?? DEFAULT_BUDGET.image_tokens },
      answer,
      durationMs: performance.now() - sent.started,
    });
  }

  /** Compacts the history now (events included); the new history, or null when no compactor chose a cut. */
  async function compact(verdict: BudgetEstimate, tools: ToolSchema[], manual?: { focus?: string }): Promise<Message[] | null> {
    try {
      const done = await compactionStep({
        input,
        deps,
        signal,
        step,
        history,
        tools,
        verdict,
        check: (messages) => {
          // Whether the folded history fits is judged on the request it will make (the JSON projection included).
          const request = requestFor(messages, tools);
          return budgetOf(request.messages, request.tools, 0);
        },
        emit,
        send,
        addUsage: (u) => addUsage(usage, u),
        ...(manual ? { manual } : {}),
      });
      return done ? done.messages : null;
    } catch (error) {
      if (signal.aborted) throw new Stop('aborted', abortError().toJSON());
      throw new Stop('error', toErrorData(error, 'E_COMPACT_FAILED'));
    }
  }

  /** A compaction-only turn: no user message, no answer request; compacts now and checkpoints. */
  async function compactOnly(request: { focus?: string }): Promise<TurnResult> {
    step = 1;
    emit({ type: 'step-start', step });
    let focus: string | undefined;
    try {
      focus = checkFocus(request.focus);
    } catch (error) {
      const refused = toErrorData(error);
      emit({ type: 'compaction-failed', step, error: refused });
      throw new Stop('error', refused);
    }
    const view = selectToolView(deps.tools, deps.toolView);
    const allTools = [...view.tools, ...view.pluginTools];
    // Judged on the request the history makes (tool results marked, or the JSON projection), like a turn's verdict.
    const asSent = requestFor(history, allTools);
    let verdict = budgetOf(asSent.messages, asSent.tools, 0);
    if (hooks.has('context_budget')) {
      verdict = (await hooks.run('context_budget', { model: input.model.model, budget: budgetSettings, history: asSent.messages, tools: asSent.tools, pending_calls: 0, compact: false, result: verdict }, ctx)).result;
    }
    const compacted = await compact(verdict, allTools, focus ? { focus } : {});
    if (!compacted) {
      const error: ErrorData = {
        code: 'E_COMPACT_NOTHING_TO_FOLD',
        message: 'Nothing to compact: the conversation is no longer than the messages compaction always keeps (the system prompt, project instructions and the most recent messages). Nothing was changed.',
        data: { messages: history.length },
      };
      emit({ type: 'compaction-failed', step, error });
      throw new Stop('error', error);
    }
    history = compacted;
    await checkpoint();
    return finishWith('stop');
  }
}

/** The turn's total: Σ of its calls' usage in seed 000 §8's accounting (estimates where a provider reported none). */
function addUsage(total: Usage, u: StepUsage | undefined): void {
  if (!u) return;
  for (const key of ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const) {
    const v = u[key];
    if (typeof v === 'number' && Number.isFinite(v)) total[key] = (total[key] ?? 0) + v;
  }
}
