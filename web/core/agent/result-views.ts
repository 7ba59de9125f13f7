// Bounded tool-result views in the loop (seed 002): a result over 4096 bytes reaches the model as a 512-byte
// preview plus a reference into a content store, and `read_result` pages the rest back. The scope is one task
// (this turn) of one session, fixed by the host when the turn starts; the model supplies only the ref string.
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
import { toErrorData } from '../errors';
import type { ToolDefinition } from '../tools/types';

/** What the loop needs to bound results (TurnDeps.results). */
export interface ResultViews {
  store: ContentStore;
  scope: ContentScope;
}

export interface TurnResultViews extends ResultViews {
  /** `read_result` bound to this turn's scope: register it beside the other tools. */
  tool: ToolDefinition;
}

/** A stored result outlives the turn by this much at most (references are task-scoped anyway). */
export const RESULT_SCOPE_TTL_MS = 60 * 60 * 1000;

/** One turn's scope (a fresh task id) over `store`, and the read_result tool bound to it. */
export function turnResultViews(o: { store: ContentStore; sessionId: string; now?: () => number; ttlMs?: number }): TurnResultViews {
  const now = o.now ?? Date.now;
  const scope: ContentScope = { sessionId: o.sessionId, taskId: globalThis.crypto.randomUUID(), expiresAtMs: now() + (o.ttlMs ?? RESULT_SCOPE_TTL_MS) };
  return { store: o.store, scope, tool: createReadResultTool({ store: o.store, scope: () => scope, now }) };
}

/**
 * The text the model sees for one tool outcome. read_result pages are already bounded and are never cut again
 * (that would hide the page behind another reference). If the full text cannot be stored, the model gets the
 * plain preview with the reason: the tool is never run again for it.
 */
export async function boundedOutput(views: ResultViews, sourceId: string, name: string, outcome: { output: string; error: boolean; code?: string }): Promise<string> {
  if (name === READ_RESULT_TOOL) return outcome.output;
  try {
    const view = await projectToolResult({
      outcome: { error: outcome.error, output: outcome.output, ...(outcome.code !== undefined ? { code: outcome.code } : {}) },
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

/** Limits of the store behind the views, for headless `i` (memory) and the app (IndexedDB `content`). */
export const RESULT_STORE_LIMITS = {
  storeId: 'tool-results',
  maxEntries: 256,
  maxBytes: 32 * 1024 * 1024,
  maxContentBytes: 8 * 1024 * 1024,
  maxPageBytes: 64 * 1024,
  maxTtlMs: RESULT_SCOPE_TTL_MS,
} as const;
