// The hook pipeline: for one event, every subscribed handler runs in order, each receiving the previous one's full
// data and returning full data (seed 000 §1/§6). Order: profile modules first, then manifest (bridge) hooks, each
// group in registration order, which is manifest order. `*` subscribes to every event.
import { HarnessError } from '../contracts';
import { hookDataCheck } from './data-schemas';
import { HOOK_EVENTS, type HookContext, type HookDataMap, type HookEvent, type HookHandler } from './types';

const EVENT_SET = new Set<string>(HOOK_EVENTS);

export class HookPipeline {
  private readonly handlers: HookHandler[] = [];

  /** Adds a handler after the others of its group. Returns its unregister function. */
  register(handler: HookHandler): () => void {
    if (handler.events.length === 0) {
      throw new HarnessError(
        'E_HOOK_INVALID',
        `Hook "${handler.name}" subscribes to no event. List at least one event or "*".`,
        { hook: handler.name },
      );
    }
    for (const e of handler.events) {
      if (e !== '*' && !EVENT_SET.has(e)) {
        throw new HarnessError(
          'E_HOOK_UNKNOWN_EVENT',
          `Hook "${handler.name}" subscribes to unknown event "${e}". Use one of: ${HOOK_EVENTS.join(', ')} or "*".`,
          { hook: handler.name, event: e },
        );
      }
    }
    const entry = { ...handler, events: [...handler.events] };
    this.handlers.push(entry);
    return () => {
      const i = this.handlers.indexOf(entry);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  /** Handlers of one event in run order: profile modules, then manifest hooks. */
  handlersFor(event: HookEvent): HookHandler[] {
    const matching = this.handlers.filter((h) => h.events.includes('*') || h.events.includes(event));
    return [...matching.filter((h) => h.source === 'profile'), ...matching.filter((h) => h.source === 'manifest')];
  }

  has(event: HookEvent): boolean {
    return this.handlers.some((h) => h.events.includes('*') || h.events.includes(event));
  }

  /**
   * Runs the chain. Throws HarnessError E_HOOK_FAILED (the handler threw) or E_HOOK_INVALID_DATA (it returned data
   * of the wrong shape), naming the handler; the caller applies the event's failure contract (types.ts).
   */
  async run<E extends HookEvent>(event: E, data: HookDataMap[E], ctx: HookContext): Promise<HookDataMap[E]> {
    let current: unknown = data;
    for (const handler of this.handlersFor(event)) {
      if (ctx.signal.aborted) throw abortError();
      let next: unknown;
      try {
        next = await handler.handle(event, current, ctx);
      } catch (error) {
        if (HarnessError.isInstance(error) && error.code === 'E_ABORTED') throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new HarnessError(
          'E_HOOK_FAILED',
          `Hook "${handler.name}" failed on ${event}: ${reason}`,
          { hook: handler.name, event, reason },
          { cause: error },
        );
      }
      const problems =
        typeof next === 'object' && next !== null && !Array.isArray(next)
          ? hookDataCheck(event)(next)
          : ['At data: expected an object (hooks return full data, not a patch).'];
      if (problems.length > 0) {
        throw new HarnessError(
          'E_HOOK_INVALID_DATA',
          `Hook "${handler.name}" returned invalid ${event} data. ${problems.slice(0, 3).join('; ')}. A hook returns the full data it received, changed or not.`,
          { hook: handler.name, event, problems },
        );
      }
      if (event === 'before_request')
        checkSameOrigin(handler.name, current as HookDataMap['before_request'], next as HookDataMap['before_request']);
      current = next;
    }
    return current as HookDataMap[E];
  }
}

/** Seed 000 §6: the core refuses a hook that changes the model request's origin (and never follows redirects). */
function checkSameOrigin(hook: string, before: { url: string }, after: { url: string }): void {
  let a: string;
  let b: string;
  try {
    a = new URL(before.url).origin;
    b = new URL(after.url).origin;
  } catch {
    throw new HarnessError(
      'E_HOOK_ORIGIN_CHANGED',
      `Hook "${hook}" returned a request URL that is not a valid URL. A before_request hook may change the path, not the origin.`,
      { hook },
    );
  }
  if (a !== b) {
    throw new HarnessError(
      'E_HOOK_ORIGIN_CHANGED',
      `Hook "${hook}" changed the model request origin from ${a} to ${b}. Hooks may change the path and body only; set base_url in the model config instead.`,
      { hook, from: a, to: b },
    );
  }
}

export function abortError(): HarnessError {
  return new HarnessError('E_ABORTED', 'The turn was stopped.');
}
