// The agent loop: one turn of seed 000 §6 / ARCHITECTURE.md "one turn". A plain function over injected ports;
// it never throws: every failure ends the turn as data (`stopReason` 'error' | 'aborted' | ...), and the
// returned stream always ends with exactly one `done` or `error` event.
//
// The stages, in the order a turn runs them (each one method of `Turn` below):
//   openSession      a new session's system prompt (`system_prompt`) and AGENTS.md
//   takeUserInput    `user_input`, the user message, `before_turn`
//   then per step (`runStep`), until the model stops:
//     fitBudget      `context_budget`; a history that does not fit is compacted (compaction-step.ts) or stops the turn
//     requestAnswer  provider prepare → `before_request` → HTTP with retries → `after_response` → parse (model-call.ts)
//     takeAnswer     the assistant message, its usage, and what it asks for: an answer (finish), a malformed JSON
//                    action or an empty `tool_calls` (told, next step), an invalid batch (told, next step)
//     runTools       per call `before_tool` → `tool_approval` → execute → `after_tool` → bounded view (run-tools.ts)
//     checkpoint     `before_save` → save → `after_save`, after every change of the history
//   finishWith       `finish`, the result
//   stopped          a stop (Stop, abort, failure) keeps what is valid, a stopped answer included, then finishWith
import { toErrorData, type ErrorData } from '../contracts';
import { abortError, transportHooksOf, type BudgetEstimate, type HookPipeline } from '../hooks';
import type {
  AssistantMessage,
  FinishReason,
  Message,
  PrepareInput,
  ToolSchema,
  Usage,
  UserMessage,
} from '../contracts';
import { contextMessagesToAppend } from '../modules';
import { loadProjectInstructions, resolveSystemPrompt } from '../modules';
import { isConsistent } from '../sessions';
import { selectToolView } from '../tool-views';
import { EventStream } from '../contracts';
import { validateBatch, type BatchVerdict, type ValidCall } from './batch';
import { anchorFrom, DEFAULT_BUDGET, estimateBudget, requestMaxTokens, UNBUDGETED, type UsageAnchor } from './budget';
import { checkFocus, compactionStep } from './compaction-step';
import { jsonAnswer, jsonRequestHistory } from './json-actions';
import { nativeRequestHistory } from './native-marks';
import { callModel } from './model-call';
import { runBatch } from './run-tools';
import { anchorUsage, nextContextSize, stepUsageOf } from './step-usage';
import type { StepUsage } from '../contracts';
import type { AgentEvent, StopReason, ToolCallRecord, TurnDeps, TurnInput, TurnResult } from './types';

export const DEFAULT_MAX_STEPS = 50;

/** Starts one turn. Consume the events with `for await`, or just `await stream.result()`. */
export function runTurn(input: TurnInput, deps: TurnDeps): EventStream<AgentEvent, TurnResult> {
  const out = new EventStream<AgentEvent, TurnResult>();
  void new Turn(input, deps, (e) => out.push(e)).run().then((result) => {
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

/** The tools a turn offers, chosen once (seed 002 tool view). */
interface OfferedTools {
  tools: ToolSchema[];
  pluginTools: ToolSchema[];
  all: ToolSchema[];
  names: Set<string>;
}

/** What one request carries, as the budget counts it and as it is sent (nothing is added after counting). */
interface RequestShape {
  messages: Message[];
  tools: ToolSchema[];
}

/** The assistant message of one step, with how it ended and what the JSON protocol made of it. */
interface Answer {
  message: AssistantMessage;
  finishReason: FinishReason;
  acted: ReturnType<typeof jsonAnswer> | null;
}

/** A step's outcome: the turn's result when it ended, else null (the next step follows). */
type StepEnd = TurnResult | null;

class Turn {
  /** What the model streamed in the current step, kept so a stop mid-answer saves it (nothing shown is lost). */
  private readonly streamed = { text: '', thinking: '' };
  private readonly signal: AbortSignal;
  private readonly ctx: { signal: AbortSignal };
  private readonly hooks: HookPipeline;
  private readonly maxSteps: number;
  private readonly records: ToolCallRecord[] = [];
  /** Provider notices already said this turn (they would repeat on every request of the turn). */
  private readonly noticed = new Set<string>();
  private readonly usage: Usage = {};
  private readonly budgetSettings: TurnInput['model']['budget'] | null;
  /** The JSON action protocol (json-actions/): the schemas travel as text in the request, never as `tools`. */
  private readonly json: boolean;
  private history: Message[];
  private step = 0;
  private anchor: UsageAnchor | null = null;
  /** The latest assistant message of THIS turn (a resumed history's old answers never count as this turn's). */
  private lastAssistant: AssistantMessage | undefined;
  /** The answer request in flight (what was sent, when): a stopped answer's usage is estimated from it. */
  private inFlight: { started: number; messages: Message[]; tools: ToolSchema[] } | null = null;
  /** This turn's prompt once it is in the history, and whether a checkpoint of this turn has saved it since. */
  private prompt: UserMessage | null = null;
  private promptSaved = false;

  constructor(
    private readonly input: TurnInput,
    private readonly deps: TurnDeps,
    private readonly send: (e: AgentEvent) => void,
  ) {
    this.signal = deps.signal ?? new AbortController().signal;
    this.ctx = { signal: this.signal };
    this.hooks = deps.hooks;
    this.maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
    this.history = [...input.history];
    this.budgetSettings = input.model.budget ? { ...DEFAULT_BUDGET, ...input.model.budget } : null;
    this.json = input.model.tool_protocol === 'json';
  }

  private readonly emit = (e: AgentEvent): void => {
    // Each model call starts afresh (a compaction summary streams through here too, before the answer).
    if (e.type === 'step-start' || e.type === 'assistant' || (e.type === 'model' && e.event.type === 'start'))
      this.streamed.text = this.streamed.thinking = '';
    else if (e.type === 'model' && e.event.type === 'text-delta') this.streamed.text += e.event.delta;
    else if (e.type === 'model' && e.event.type === 'thinking-delta') this.streamed.thinking += e.event.delta;
    this.send(e);
  };

  async run(): Promise<TurnResult> {
    this.emit({ type: 'turn-start', session: this.deps.session?.path ?? null });
    try {
      this.abortIfNeeded();
      if (this.input.compact) return await this.compactOnly(this.input.compact);
      await this.openSession();
      await this.syncContext();
      await this.takeUserInput();
      const offered = this.offeredTools();
      for (;;) {
        const ended = await this.runStep(offered);
        if (ended) return ended;
      }
    } catch (error) {
      return this.stopped(error);
    }
  }

  // ── before the first step ─────────────────────────────────────────────────────────────────────────────────

  /**
   * A new session: the system prompt (the embedded default with the workspace's name, unless the caller resolved
   * another), then AGENTS.md as workspace content. Both stay fixed for the whole session.
   */
  private async openSession(): Promise<void> {
    if (this.history.some((m) => m.role === 'system')) return;
    let prompt = this.input.systemPrompt ?? resolveSystemPrompt({ workspace: this.deps.fs.rootName });
    if (this.hooks.has('system_prompt')) prompt = (await this.hooks.run('system_prompt', { prompt }, this.ctx)).prompt;
    const head: Message[] = [{ role: 'system', content: prompt }];
    try {
      const instructions = await loadProjectInstructions(this.deps.fs);
      if (instructions) head.push(instructions);
    } catch (error) {
      // An unreadable or oversized AGENTS.md leaves the project instructions out, said once; the turn goes on.
      this.emit({ type: 'warning', step: this.step, error: toErrorData(error, 'E_AGENTS_MD_UNREADABLE') });
    }
    this.history.unshift(...head);
  }

  /** `user_input` may rewrite the person's content; `before_turn` sees the history with the user message. */
  private async takeUserInput(): Promise<void> {
    let content = this.input.content;
    if (this.hooks.has('user_input')) content = (await this.hooks.run('user_input', { content }, this.ctx)).content;
    const userMessage: UserMessage = {
      role: 'user',
      content,
      ...(this.input.turnId !== undefined ? { _turn: this.input.turnId } : {}),
    };
    this.history.push(userMessage);
    this.prompt = userMessage;
    if (this.hooks.has('before_turn'))
      this.history = [...(await this.hooks.run('before_turn', { messages: this.history }, this.ctx)).messages];
  }

  /** The tool view (seed 002): the selected, limit-checked tools; an invalid view stops the turn before any request. */
  private offeredTools(): OfferedTools {
    const { tools, pluginTools } = selectToolView(this.deps.tools, this.deps.toolView);
    const all = [...tools, ...pluginTools];
    return { tools, pluginTools, all, names: new Set(all.map((t) => t.name)) };
  }

  // ── one step ──────────────────────────────────────────────────────────────────────────────────────────────

  private async runStep(offered: OfferedTools): Promise<StepEnd> {
    this.abortIfNeeded();
    if (this.step >= this.maxSteps) {
      throw new Stop('step_limit', {
        code: 'E_STEP_LIMIT',
        message: `The turn stopped after ${this.maxSteps} model calls without finishing. Continue with a new prompt, or raise the step limit.`,
      });
    }
    this.step++;
    this.emit({ type: 'step-start', step: this.step });
    // Memory/skills changed by this turn's tools reach the model as a delta before the next request.
    if (this.step > 1) await this.syncContext();
    const request = await this.fitBudget(offered);
    const answer = await this.requestAnswer(offered, request);
    return this.takeAnswer(answer, offered);
  }

  /** context_budget: the default verdict, then any budget module; not fitting → compaction seam or stop. */
  private async fitBudget(offered: OfferedTools): Promise<RequestShape> {
    const request = this.requestFor(this.history, offered.all);
    const verdict = await this.judgeBudget(request, 0);
    if (verdict.fits) return request;
    const compacted = await this.compact(verdict, offered.all);
    if (!compacted) {
      throw new Stop('budget', {
        code: 'E_CONTEXT_BUDGET',
        message: `The conversation (about ${verdict.estimate} tokens) exceeds the context budget (${verdict.trigger}). Start a new session, or enable a compaction module.`,
        data: { estimate: verdict.estimate, trigger: verdict.trigger },
      });
    }
    this.history = compacted;
    this.anchor = null;
    // Saved at once: the log records the fold the person was just shown, even if the answer then fails.
    await this.checkpoint();
    return this.requestFor(this.history, offered.all);
  }

  /** One model call for the answer (retries inside), its notices said once a turn, and the message it chose. */
  private async requestAnswer(offered: OfferedTools, request: RequestShape): Promise<Answer> {
    const { input, deps, json, step } = this;
    const prepare: PrepareInput = {
      version: 1,
      protocol: input.model.protocol,
      base_url: input.model.base_url,
      model: input.model.model,
      history: request.messages,
      max_tokens: requestMaxTokens(input.model), // tightened to budget.output_reserve (seed 002)
      compact: false,
      tools: json ? [] : offered.tools,
      plugin_tools: json ? [] : offered.pluginTools,
      use_max_tokens: input.model.use_max_tokens,
      extra_body: input.model.extra_body,
      stream: true,
    };
    this.inFlight = { started: performance.now(), messages: request.messages, tools: request.tools };
    const outcome = await callModel(
      deps.stream,
      {
        input: prepare,
        hooks: transportHooksOf(this.hooks, this.signal),
        requestMeta: { step, ...(deps.session ? { session: deps.session.path } : {}) },
        signal: this.signal,
      },
      step,
      this.emit,
    );
    this.abortIfNeeded();
    if (!outcome.ok) throw new Stop(outcome.error.code === 'E_ABORTED' ? 'aborted' : 'error', outcome.error);
    // What the provider adapter said about this request (e.g. N_REPLAY_NOT_LOSSLESS after a protocol switch): once a turn.
    for (const notice of outcome.result.notices ?? []) {
      if (this.noticed.has(notice.code)) continue;
      this.noticed.add(notice.code);
      this.emit({ type: 'warning', step, error: { code: notice.code, message: notice.message } });
    }
    const response = outcome.result.parsed.response;
    const choice = response.choices[0];
    if (!choice)
      throw new Stop('error', {
        code: 'E_MODEL_EMPTY',
        message: 'The model returned no choice. Try again; if it repeats, check the provider.',
      });
    let answer: AssistantMessage = {
      ...choice.message,
      role: 'assistant',
      _provider: { protocol: input.model.protocol, model: input.model.model },
    };
    let finishReason = choice.finish_reason;
    const acted = json
      ? jsonAnswer(answer, finishReason, offered.names, () => `json_${step}_${crypto.randomUUID().slice(0, 8)}`)
      : null;
    if (acted) ({ message: answer, finishReason } = acted);
    const stepUsage = this.usageOf(answer, response.usage, response.raw_usage);
    addUsage(this.usage, stepUsage);
    this.inFlight = null;
    // Stamped before anything saves it, so the session log keeps what every answer cost.
    const message: AssistantMessage = { ...answer, _usage: stepUsage };
    this.emit({ type: 'assistant', step, message, finishReason });
    this.lastAssistant = message;
    this.anchor = anchorFrom(anchorUsage(stepUsage), [...this.history, message]);
    this.emit({
      type: 'usage',
      step,
      usage: stepUsage,
      context: nextContextSize(this.budgetSettings, stepUsage, this.history, message, offered.all, this.anchor),
    });
    return { message, finishReason, acted };
  }

  /** What the answer asks for: the end of the turn, another try (told why), or its tool calls run. */
  private async takeAnswer({ message, finishReason, acted }: Answer, offered: OfferedTools): Promise<StepEnd> {
    const { history, step } = this;
    if (acted?.kind === 'malformed') {
      // Not an action: the model is told why in the result envelope and tries again within the step limit.
      this.emit({ type: 'warning', step, error: { code: acted.code, message: acted.error } });
      history.push(message, {
        role: 'user',
        content: acted.envelope,
        _meta: { kind: 'json_protocol_error', code: acted.code },
      });
      await this.checkpoint();
      return null;
    }
    if ((message.tool_calls?.length ?? 0) === 0) {
      history.push(message);
      await this.checkpoint();
      if (finishReason === 'tool_calls') {
        // Claimed tool calls but sent none: tell the model and let it try again within the step limit.
        this.history.push({
          role: 'user',
          content: 'Your response ended with finish reason "tool_calls" but contained no tool call. Continue.',
          _meta: { kind: 'batch_error' },
        });
        return null;
      }
      const known: readonly string[] = ['stop', 'length', 'content_filter', 'incomplete'];
      return this.finishWith((known.includes(finishReason) ? finishReason : 'stop') as StopReason);
    }
    const batch = validateBatch(message, finishReason, this.deps.tools);
    if (!batch.ok) {
      await this.refuseBatch(message, batch);
      return null;
    }
    history.push(message);
    await this.runTools(batch.calls, offered);
    return null;
  }

  /** An invalid batch runs nothing: each call is answered with why (or, without usable ids, the model is told). */
  private async refuseBatch(message: AssistantMessage, batch: Extract<BatchVerdict, { ok: false }>): Promise<void> {
    const { history, step } = this;
    this.emit({
      type: 'batch-invalid',
      step,
      errors: batch.problems.map((p) => ({ index: p.index, id: p.id, message: p.message })),
    });
    const text = `No tool ran: the tool-call batch is invalid. ${batch.problems.map((p) => p.message).join('; ')}. Send the calls again, corrected.`;
    if (batch.idsUsable) {
      history.push(message);
      for (const call of message.tool_calls ?? []) {
        history.push({
          role: 'tool',
          tool_call_id: call.id,
          content: `Error E_TOOL_BATCH_INVALID: ${text}`,
          _error: true,
        });
        this.records.push({
          id: call.id,
          name: String(call.function?.name),
          step,
          ran: false,
          error: true,
          code: 'E_TOOL_BATCH_INVALID',
        });
      }
    } else {
      // Calls without usable ids cannot be answered; keep the text, drop the calls and any replay state.
      const { tool_calls: _calls, _anthropic_content: _a, _responses_output: _r, ...rest } = message;
      history.push({ ...rest, content: message.content ?? '' });
      history.push({ role: 'user', content: `Error E_TOOL_BATCH_INVALID: ${text}`, _meta: { kind: 'batch_error' } });
    }
    await this.checkpoint();
  }

  /** The batch's calls, under the per-call tool budget the budget module answers for the pending calls (seed 000 §7). */
  private async runTools(calls: ValidCall[], offered: OfferedTools): Promise<void> {
    const pending = this.requestFor(this.history, offered.all);
    const budgetNow = await this.judgeBudget(pending, calls.length);
    const ran = await runBatch(calls, this.step, this.deps, this.signal, budgetNow.tool_budget, this.emit);
    this.records.push(...ran.records);
    this.history.push(...ran.messages);
    await this.checkpoint();
    this.abortIfNeeded();
  }

  // ── shared by the stages ──────────────────────────────────────────────────────────────────────────────────

  private abortIfNeeded(): void {
    if (this.signal.aborted) throw new Stop('aborted', abortError().toJSON());
  }

  /** Native requests mark each tool result as untrusted data (native-marks.ts); JSON requests carry the envelope. */
  private requestFor(messages: Message[], tools: ToolSchema[]): RequestShape {
    return this.json
      ? { messages: jsonRequestHistory(messages, tools), tools: [] as ToolSchema[] }
      : { messages: nativeRequestHistory(messages), tools };
  }

  private budgetOf(request: RequestShape, pending: number): BudgetEstimate {
    return this.budgetSettings
      ? estimateBudget(this.budgetSettings, request.messages, request.tools, pending, this.anchor)
      : UNBUDGETED;
  }

  /** The default verdict on a request, then the `context_budget` hook's. */
  private async judgeBudget(request: RequestShape, pendingCalls: number): Promise<BudgetEstimate> {
    const verdict = this.budgetOf(request, pendingCalls);
    if (!this.hooks.has('context_budget')) return verdict;
    const data = {
      model: this.input.model.model,
      budget: this.budgetSettings,
      history: request.messages,
      tools: request.tools,
      pending_calls: pendingCalls,
      compact: false,
      result: verdict,
    };
    return (await this.hooks.run('context_budget', data, this.ctx)).result;
  }

  private async checkpoint(): Promise<void> {
    const { deps, hooks, ctx } = this;
    if (!deps.session) return;
    const path = deps.session.path;
    let messages = this.history;
    if (hooks.has('before_save')) messages = (await hooks.run('before_save', { messages, path }, ctx)).messages;
    await deps.session.save(messages);
    // What was saved is the history from now on (a before_save module may have normalised it).
    this.history = messages;
    if (this.prompt) this.promptSaved = true;
    this.emit({ type: 'checkpoint', step: this.step, messages: messages.length, path });
    if (hooks.has('after_save')) {
      try {
        await hooks.run('after_save', { messages, path }, ctx);
      } catch (error) {
        // The checkpoint stands; after_save is a confirmation (types.ts contract).
        this.emit({ type: 'warning', step: this.step, error: toErrorData(error) });
      }
    }
  }

  /**
   * Appends the memory/skills snapshot (first time) or a delta (when something changed) to the history; never
   * touches earlier messages (seed 000 §9). No `deps.context`: nothing is injected. A failing state read is a
   * warning and leaves the model's view as it was.
   */
  private async syncContext(): Promise<void> {
    if (!this.deps.context) return;
    let added: Message[];
    try {
      added = contextMessagesToAppend(this.history, await this.deps.context());
    } catch (error) {
      this.emit({ type: 'warning', step: this.step, error: toErrorData(error, 'E_CONTEXT_STATE_FAILED') });
      return;
    }
    this.abortIfNeeded();
    if (added.length > 0) this.history = [...this.history, ...added];
  }

  private usageOf(answer: AssistantMessage, reported: Usage | undefined, raw: unknown): StepUsage {
    const sent = this.inFlight ?? { started: performance.now(), messages: this.history, tools: [] };
    return stepUsageOf({
      protocol: this.input.model.protocol,
      model: this.input.model.model,
      usage: reported,
      rawUsage: raw,
      request: {
        messages: sent.messages,
        tools: sent.tools,
        imageTokens: this.budgetSettings?.image_tokens ?? DEFAULT_BUDGET.image_tokens,
      },
      answer,
      durationMs: performance.now() - sent.started,
    });
  }

  /** Compacts the history now (events included); the new history, or null when no compactor chose a cut. */
  private async compact(
    verdict: BudgetEstimate,
    tools: ToolSchema[],
    manual?: { focus?: string },
  ): Promise<Message[] | null> {
    try {
      const done = await compactionStep({
        input: this.input,
        deps: this.deps,
        signal: this.signal,
        step: this.step,
        history: this.history,
        tools,
        verdict,
        // Whether the folded history fits is judged on the request it will make (the JSON projection included).
        check: (messages) => this.budgetOf(this.requestFor(messages, tools), 0),
        emit: this.emit,
        send: this.send,
        addUsage: (u) => addUsage(this.usage, u),
        ...(manual ? { manual } : {}),
      });
      return done ? done.messages : null;
    } catch (error) {
      if (this.signal.aborted) throw new Stop('aborted', abortError().toJSON());
      throw new Stop('error', toErrorData(error, 'E_COMPACT_FAILED'));
    }
  }

  /** A compaction-only turn: no user message, no answer request; compacts now and checkpoints. */
  private async compactOnly(request: { focus?: string }): Promise<TurnResult> {
    this.step = 1;
    this.emit({ type: 'step-start', step: this.step });
    let focus: string | undefined;
    try {
      focus = checkFocus(request.focus);
    } catch (error) {
      const refused = toErrorData(error);
      this.emit({ type: 'compaction-failed', step: this.step, error: refused });
      throw new Stop('error', refused);
    }
    const { all } = this.offeredTools();
    // Judged on the request the history makes (tool results marked, or the JSON projection), like a turn's verdict.
    const verdict = await this.judgeBudget(this.requestFor(this.history, all), 0);
    const compacted = await this.compact(verdict, all, focus ? { focus } : {});
    if (!compacted) {
      const error: ErrorData = {
        code: 'E_COMPACT_NOTHING_TO_FOLD',
        message:
          'Nothing to compact: the conversation is no longer than the messages compaction always keeps (the system prompt, project instructions and the most recent messages). Nothing was changed.',
        data: { messages: this.history.length },
      };
      this.emit({ type: 'compaction-failed', step: this.step, error });
      throw new Stop('error', error);
    }
    this.history = compacted;
    await this.checkpoint();
    return this.finishWith('stop');
  }

  // ── the end ───────────────────────────────────────────────────────────────────────────────────────────────

  /** A stop keeps what is valid (a stopped answer included) and saves it, then ends the turn with its reason. */
  private async stopped(error: unknown): Promise<TurnResult> {
    const { history, input, deps } = this;
    const stop =
      error instanceof Stop
        ? error
        : this.signal.aborted
          ? new Stop('aborted', abortError().toJSON())
          : new Stop('error', toErrorData(error, 'E_TURN_FAILED'));
    // A stop while the model was answering keeps the answer so far, marked as stopped (the next turn can continue it).
    if (stop.reason === 'aborted' && (this.streamed.text || this.streamed.thinking) && isConsistent(history)) {
      const stopped: AssistantMessage = {
        role: 'assistant',
        content: this.streamed.text,
        _provider: { protocol: input.model.protocol, model: input.model.model },
        _stopped: this.streamed.thinking ? { thinking: this.streamed.thinking } : {},
      };
      // What is known of a stopped call: no provider figures, so estimates of what was sent and streamed.
      history.push(this.inFlight ? { ...stopped, _usage: this.usageOf(stopped, undefined, undefined) } : stopped);
    }
    // A turn that failed before anything saved its prompt (a 401, the network, the budget) keeps the prompt when
    // asked to (the app): saved with the error on it, so a reload still shows both and Retry can send it in its place.
    const failedPrompt =
      input.keepFailedPrompt && stop.error && stop.reason !== 'aborted' ? this.unsavedPromptAt() : -1;
    if (failedPrompt >= 0) {
      const { _failed: _earlier, ...prompt } = this.history[failedPrompt] as UserMessage;
      this.history = this.history.slice(0, failedPrompt + 1);
      this.history[failedPrompt] = { ...prompt, _failed: stop.error! };
    }
    // Keep what is valid: a stop between steps leaves a consistent history; save it unless nothing changed.
    if (deps.session && (stop.reason !== 'error' || failedPrompt >= 0) && isConsistent(this.history)) {
      try {
        await this.checkpoint();
      } catch (e) {
        this.emit({ type: 'warning', step: this.step, error: toErrorData(e) });
      }
    }
    return this.finishWith(stop.reason, stop.error);
  }

  /** Where this turn's prompt is while no checkpoint of the turn holds it yet; -1 when saved or never taken. */
  private unsavedPromptAt(): number {
    if (!this.prompt || this.promptSaved) return -1;
    const at = this.history.indexOf(this.prompt);
    if (at >= 0) return at;
    // A before_turn module replaced the message objects: the last message the person typed.
    return this.history.findLastIndex((m) => m.role === 'user' && m._meta === undefined);
  }

  private async finishWith(stopReason: StopReason, error?: ErrorData): Promise<TurnResult> {
    const last = this.lastAssistant;
    const result: TurnResult = {
      stopReason,
      messages: this.history,
      text: typeof last?.content === 'string' ? last.content : '',
      steps: this.step,
      toolCalls: this.records,
      usage: this.usage,
      ...(error ? { error } : {}),
    };
    if (this.hooks.has('finish')) {
      try {
        await this.hooks.run(
          'finish',
          { messages: this.history, stop_reason: stopReason },
          { signal: new AbortController().signal },
        );
      } catch (e) {
        this.emit({ type: 'warning', step: this.step, error: toErrorData(e) });
      }
    }
    return result;
  }
}

/** The turn's total: Σ of its calls' usage in seed 000 §8's accounting (estimates where a provider reported none). */
function addUsage(total: Usage, u: StepUsage | undefined): void {
  if (!u) return;
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_read_tokens',
    'cache_write_tokens',
    'reasoning_tokens',
  ] as const) {
    const v = u[key];
    if (typeof v === 'number' && Number.isFinite(v)) total[key] = (total[key] ?? 0) + v;
  }
}
