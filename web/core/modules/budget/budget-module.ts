// The budget module (seed 000 §7) as hook handlers. `context_budget` returns the verdict {fits, estimate, trigger,
// tool_budget, method}; a `before_request` of a step whose verdict did not fit (and where no compaction ran since)
// is refused, so the model HTTP never goes out over budget even if a caller ignored the verdict.
//
// Usage anchors: after a response, valid input + output usage becomes an anchor bound to the model, the
// fingerprint of the history that was sent, and the endpoint/protocol/provider-binding/options hash. The next estimate uses it only
// when all three still match and the message after the anchored prefix is the assistant answer; then it adds the
// conservative byte estimate of everything newer and of the tool schemas. Otherwise (first request, other model,
// changed prefix or endpoint, usage missing/invalid/overflowing) everything is estimated in UTF-8 bytes: unknown
// consumption is never counted as 0. The estimate can still be high (replayed reasoning is not always resent),
// and it is no promise of the server's exact count.
import { HarnessError } from '../../contracts';
import type { BudgetEstimate, BudgetSettings, HookDataMap, HookEvent, HookHandler } from '../../hooks';
import type { Message, ToolSchema } from '../../contracts';
import { readInputUsage } from '../cache';
import { budgetTrigger, toolBudget } from './budget-config';
import { endpointHash, estimateMessages, estimateTools, historyChain } from './estimate';

export interface BudgetEndpoint {
  protocol: string;
  base_url: string;
  /** Request options that change what the provider counts (max_tokens, use_max_tokens, extra_body, ...). */
  options?: Record<string, unknown>;
  /**
   * The provider worker binding (seed 003: the anchor is bound to the endpoint, the selector or binding and the
   * options): another worker behind the same selector and model may count differently. Null: the built-in adapter
   * or the environment's worker.
   */
  binding?: unknown;
}

export interface BudgetModuleOptions {
  settings: BudgetSettings;
  endpoint: BudgetEndpoint;
  name?: string;
}

interface Anchor {
  model: string;
  endpoint: string;
  /** Messages covered by the usage's input; the next message is the answer its output counted. */
  length: number;
  prefix: string;
  tokens: number;
}

interface Pending {
  id: number;
  model: string;
  endpoint: string;
  length: number;
  prefix: string;
  fits: boolean;
  estimate: number;
  trigger: number;
}

export interface BudgetVerdict extends BudgetEstimate {
  method: 'usage' | 'utf8_bytes';
}

export interface BudgetInput {
  model: string;
  history: readonly Message[];
  tools: readonly ToolSchema[];
  pendingCalls: number;
  /** A summary request: unused tool schemas are not counted. */
  compact: boolean;
  /** Overrides the module's endpoint for this estimate (a changed endpoint voids the anchor). */
  endpoint?: BudgetEndpoint;
}

export interface BudgetModule extends HookHandler {
  /** The verdict for a history, as `context_budget` answers it (also for the loop's post-compaction re-check). */
  estimate(input: BudgetInput): BudgetVerdict;
  /** Forgets the usage anchor (e.g. after the history was replaced). */
  resetAnchor(): void;
}

export function createBudgetModule(o: BudgetModuleOptions): BudgetModule {
  const settings = o.settings;
  const trigger = budgetTrigger(settings);
  const configuredEndpoint = endpointHash(o.endpoint);
  let anchor: Anchor | null = null;
  let pending: Pending | null = null;
  let nextId = 1;
  /** Set by compact_plan: the loop re-checks the compacted history itself, so the stale verdict must not block. */
  let compactedSince = false;

  function estimate(input: BudgetInput): BudgetVerdict & { chain: string[]; endpoint: string } {
    const endpoint = input.endpoint ? endpointHash(input.endpoint) : configuredEndpoint;
    const chain = historyChain(input.history);
    const tools = input.compact ? 0 : estimateTools(input.tools);
    const a = anchor;
    let total: number;
    let method: BudgetVerdict['method'] = 'utf8_bytes';
    if (
      a &&
      a.model === input.model &&
      a.endpoint === endpoint &&
      input.history.length > a.length &&
      chain[a.length - 1] === a.prefix &&
      input.history[a.length]?.role === 'assistant'
    ) {
      total = a.tokens + estimateMessages(input.history.slice(a.length + 1), settings.image_tokens) + tools;
      method = 'usage';
    } else {
      total = estimateMessages(input.history, settings.image_tokens) + tools;
    }
    const remaining = trigger - total;
    return {
      fits: total <= trigger,
      estimate: total,
      trigger,
      tool_budget: toolBudget(settings, remaining, input.pendingCalls),
      method,
      chain,
      endpoint,
    };
  }

  function onContextBudget(data: HookDataMap['context_budget']): HookDataMap['context_budget'] {
    const extra = (data as { endpoint?: BudgetEndpoint }).endpoint;
    const v = estimate({
      model: data.model,
      history: data.history,
      tools: data.tools,
      pendingCalls: data.pending_calls,
      compact: data.compact,
      ...(extra ? { endpoint: extra } : {}),
    });
    if (!data.compact && data.pending_calls === 0) {
      pending = {
        id: nextId++,
        model: data.model,
        endpoint: v.endpoint,
        length: data.history.length,
        prefix: v.chain[v.chain.length - 1] ?? '',
        fits: v.fits,
        estimate: v.estimate,
        trigger,
      };
      compactedSince = false;
    }
    const { chain: _c, endpoint: _e, ...result } = v;
    return { ...data, result };
  }

  function onBeforeRequest(data: HookDataMap['before_request']): HookDataMap['before_request'] {
    if (data.request_meta.compact === true || !pending) return data;
    if (!pending.fits && !compactedSince) {
      throw new HarnessError(
        'E_CONTEXT_BUDGET',
        `The request (about ${pending.estimate} tokens) exceeds the context budget (${pending.trigger}); it was not sent. Start a new session, or enable compaction.`,
        { estimate: pending.estimate, trigger: pending.trigger },
      );
    }
    // A compacted history was not fingerprinted here, and another model or protocol measures differently: no anchor.
    if (compactedSince || pending.model !== data.model || o.endpoint.protocol !== data.protocol) {
      pending = null;
      return data;
    }
    return { ...data, request_meta: { ...data.request_meta, budget_request: pending.id } };
  }

  function onAfterResponse(data: HookDataMap['after_response']): void {
    const id = data.request_meta.budget_request;
    if (!pending || id !== pending.id) return;
    const p = pending;
    pending = null;
    const usage = readInputUsage(o.endpoint.protocol, data.response);
    const tokens = usage && usage.output !== null ? usage.input + usage.output : NaN;
    // Missing, invalid or overflowing usage (more than the whole window) never anchors: bytes are used instead.
    anchor =
      Number.isSafeInteger(tokens) && tokens > 0 && tokens <= settings.context_window
        ? { model: p.model, endpoint: p.endpoint, length: p.length, prefix: p.prefix, tokens }
        : null;
  }

  return {
    name: o.name ?? 'budget',
    source: 'profile',
    events: ['context_budget', 'compact_plan', 'before_request', 'after_response'],
    handle(event: HookEvent, data: unknown) {
      switch (event) {
        case 'context_budget':
          return onContextBudget(data as HookDataMap['context_budget']);
        case 'compact_plan':
          compactedSince = true;
          return data;
        case 'before_request':
          return onBeforeRequest(data as HookDataMap['before_request']);
        case 'after_response':
          onAfterResponse(data as HookDataMap['after_response']);
          return data;
        default:
          return data;
      }
    },
    estimate(input) {
      const { chain: _c, endpoint: _e, ...result } = estimate(input);
      return result;
    },
    resetAnchor() {
      anchor = null;
    },
  };
}
