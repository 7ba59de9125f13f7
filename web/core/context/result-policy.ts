// Bounded tool-result views (seed 002 "ToolResultPolicy"): a policy may only keep the whole text or one UTF-8
// prefix length; it can never replace text, success/failure, or the message role. BoundedResultPolicy keeps up to
// 4096 bytes whole; a longer result shows a 512-byte preview plus a reference to the full text in a ContentStore.
// The view changes only what the model sees next; the session log keeps the full result.
import type { ContentRef, ContentScope, ContentStore } from './content-store';
import { contentError } from './content-store';
import { encodeRef } from './ref-token';
import { utf8Length, utf8Prefix } from './utf8';

export type ResultDecision = { keep: 'whole' } | { keep: 'prefix'; bytes: number };

export interface ToolResultPolicy {
  decide(text: string, totalBytes: number): ResultDecision;
}

export const DEFAULT_KEEP_WHOLE_BYTES = 4096;
export const DEFAULT_PREVIEW_BYTES = 512;

export class BoundedResultPolicy implements ToolResultPolicy {
  constructor(
    readonly keepWholeBytes = DEFAULT_KEEP_WHOLE_BYTES,
    readonly previewBytes = DEFAULT_PREVIEW_BYTES,
  ) {
    if (
      !Number.isSafeInteger(keepWholeBytes) ||
      keepWholeBytes < 0 ||
      !Number.isSafeInteger(previewBytes) ||
      previewBytes < 0 ||
      previewBytes > keepWholeBytes
    ) {
      throw contentError(
        'E_CONTENT_CONFIG',
        'BoundedResultPolicy needs 0 <= previewBytes <= keepWholeBytes (integers).',
      );
    }
  }

  decide(_text: string, totalBytes: number): ResultDecision {
    return totalBytes <= this.keepWholeBytes ? { keep: 'whole' } : { keep: 'prefix', bytes: this.previewBytes };
  }
}

/** What the tool produced, as recorded (success or failure); `code` is kept unchanged for failures. */
export interface ToolOutcome {
  error: boolean;
  output: string;
  code?: string;
}

export interface OutputView {
  text: string;
  truncated: boolean;
  totalBytes: number;
  reference?: ContentRef;
}

export interface ToolResultView {
  error: boolean;
  code?: string;
  output: OutputView;
}

export interface ProjectOptions {
  outcome: ToolOutcome;
  /** Id of the confirmed tool result (the source of the stored content). */
  sourceId: string;
  /** From trusted host state, never from the model. */
  scope: ContentScope;
  nowMs: number;
  policy: ToolResultPolicy;
  store: ContentStore;
  /** The caller's ceiling for a preview: a policy asking for more is refused. */
  maxPreviewBytes: number;
}

/** Applies the policy; a cut result's full text goes to the store first, so the view never points at nothing. */
export async function projectToolResult(o: ProjectOptions): Promise<ToolResultView> {
  const { outcome } = o;
  const totalBytes = utf8Length(outcome.output);
  const decision = o.policy.decide(outcome.output, totalBytes);
  const base = { error: outcome.error, ...(outcome.code !== undefined ? { code: outcome.code } : {}) };
  if (decision.keep === 'whole') return { ...base, output: { text: outcome.output, truncated: false, totalBytes } };
  if (
    decision.keep !== 'prefix' ||
    !Number.isSafeInteger(decision.bytes) ||
    decision.bytes < 0 ||
    decision.bytes > o.maxPreviewBytes
  ) {
    throw contentError(
      'E_RESULT_POLICY',
      `The result policy asked for an invalid preview (max ${o.maxPreviewBytes} bytes); it may keep the whole text or a UTF-8 prefix only.`,
    );
  }
  if (decision.bytes >= totalBytes) return { ...base, output: { text: outcome.output, truncated: false, totalBytes } };
  const reference = await o.store.put(o.sourceId, outcome.output, o.scope, o.nowMs);
  const preview = utf8Prefix(outcome.output, decision.bytes);
  return { ...base, output: { text: preview.text, truncated: true, totalBytes, reference } };
}

/** The text the model sees for a view: the preview and, when cut, how to read the rest with read_result. */
export function renderResultView(view: ToolResultView): string {
  const out = view.output;
  if (!out.truncated || !out.reference) return out.text;
  const shown = utf8Length(out.text);
  const call = JSON.stringify({ ref: encodeRef(out.reference), offset: shown });
  return `${out.text}\n[result truncated: ${shown} of ${out.totalBytes} bytes shown. Read the rest with read_result ${call}]`;
}
