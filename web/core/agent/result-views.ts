// Bounded tool-result views in the loop (seed 002): a result over 4096 bytes reaches the model as a 512-byte
// preview plus a reference into a content store, and `read_result` pages the rest back. The scope is fixed by the
// host when the turn starts; the model supplies only the ref string. `sessionResultViews` (the app and headless
// `i`) scopes references to the whole session: the task of the scope is the session itself, so a reference made
// in one turn still reads in a later one (web/core/context/CONTEXT.md, "Scope"). `turnResultViews` keeps the
// older one-turn scope for hosts without a persistent store.
import {
  BoundedResultPolicy,
  createReadResultTool,
  DEFAULT_PREVIEW_BYTES,
  projectToolResult,
  READ_RESULT_TOOL,
  renderResultView,
  utf8Length,
  utf8Prefix,
  type ContentScope,
  type ContentStore,
} from '../context';
import { toErrorData } from '../contracts';
import type { ToolDefinition } from '../contracts';

/** What the loop needs to bound results (TurnDeps.results). */
export interface ResultViews {
  store: ContentStore;
  scope: ContentScope;
  /** Distinguishes this turn's results from another turn's with the same tool call ids (a session-wide scope). */
  turnId?: string;
}

export interface TurnResultViews extends ResultViews {
  /** `read_result` bound to this turn's scope: register it beside the other tools. */
  tool: ToolDefinition;
}

/** A stored result outlives the turn by this much at most (references are task-scoped anyway). */
export const RESULT_SCOPE_TTL_MS = 60 * 60 * 1000;

/** One turn's scope (a fresh task id) over `store`, and the read_result tool bound to it. */
export function turnResultViews(o: {
  store: ContentStore;
  sessionId: string;
  now?: () => number;
  ttlMs?: number;
}): TurnResultViews {
  const now = o.now ?? Date.now;
  const scope: ContentScope = {
    sessionId: o.sessionId,
    taskId: globalThis.crypto.randomUUID(),
    expiresAtMs: now() + (o.ttlMs ?? RESULT_SCOPE_TTL_MS),
  };
  return { store: o.store, scope, tool: createReadResultTool({ store: o.store, scope: () => scope, now }) };
}

/** The task id of a session-wide scope: every turn of the session shares it, so references outlive the turn. */
export const SESSION_TASK_ID = 'session';

/** How long a session-scoped reference lives at most (seed 002: every entry has an absolute expiry). */
export const SESSION_RESULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * One turn's views over a store whose references stay readable for the whole session (later turns, and after a
 * reload or in a new process when the store persists). Call it at each turn start and pass the result whole as
 * `TurnDeps.results` (its `turnId` keeps sources of different turns apart); register `tool`.
 */
export function sessionResultViews(o: {
  store: ContentStore;
  sessionId: string;
  now?: () => number;
  ttlMs?: number;
}): TurnResultViews {
  const now = o.now ?? Date.now;
  const scope: ContentScope = {
    sessionId: o.sessionId,
    taskId: SESSION_TASK_ID,
    expiresAtMs: now() + (o.ttlMs ?? SESSION_RESULT_TTL_MS),
  };
  return {
    store: o.store,
    scope,
    turnId: globalThis.crypto.randomUUID(),
    tool: createReadResultTool({ store: o.store, scope: () => scope, now }),
  };
}

/** The content store source id of one tool result: unique per session, turn, step and call. */
export function resultSourceId(views: ResultViews, step: number, callId: string): string {
  return `${views.scope.sessionId}:${views.turnId ?? views.scope.taskId}:${step}:${callId}`;
}

/**
 * The text the model sees for one tool outcome. read_result pages are already bounded and are never cut again
 * (that would hide the page behind another reference). If the full text cannot be stored, the model gets the
 * plain preview with the reason: the tool is never run again for it.
 */
export async function boundedOutput(
  views: ResultViews,
  sourceId: string,
  name: string,
  outcome: { output: string; error: boolean; code?: string },
): Promise<string> {
  if (name === READ_RESULT_TOOL) return outcome.output;
  try {
    const view = await projectToolResult({
      outcome: {
        error: outcome.error,
        output: outcome.output,
        ...(outcome.code !== undefined ? { code: outcome.code } : {}),
      },
      sourceId,
      scope: views.scope,
      nowMs: Date.now(),
      policy: new BoundedResultPolicy(),
      store: views.store,
      maxPreviewBytes: 4096,
    });
    return renderResultView(view);
  } catch (error) {
    const e = toErrorData(error, 'E_CONTENT_STORE_FAILED');
    const preview = utf8Prefix(outcome.output, DEFAULT_PREVIEW_BYTES).text;
    return `${preview}\n[result truncated: ${utf8Length(preview)} of ${utf8Length(outcome.output)} bytes shown; the full text could not be kept for read_result (${e.code}).]`;
  }
}

/**
 * Limits of one session's store (the file store in the session folder headless, the app's IndexedDB `content`
 * records of that session): a full store refuses new results (the model then gets the preview and the reason,
 * the log still keeps the whole text); it never evicts a live reference.
 */
export const SESSION_RESULT_STORE_LIMITS = {
  storeId: 'session-results',
  maxEntries: 1024,
  maxBytes: 64 * 1024 * 1024,
  maxContentBytes: 8 * 1024 * 1024,
  maxPageBytes: 64 * 1024,
  maxTtlMs: SESSION_RESULT_TTL_MS,
} as const;

/** Limits of a one-turn store (turnResultViews; headless `i` without --session-name keeps it in memory). */
export const RESULT_STORE_LIMITS = {
  storeId: 'tool-results',
  maxEntries: 256,
  maxBytes: 32 * 1024 * 1024,
  maxContentBytes: 8 * 1024 * 1024,
  maxPageBytes: 64 * 1024,
  maxTtlMs: RESULT_SCOPE_TTL_MS,
} as const;
