// The lifecycle hook events of seed 000 §6 and the data each one carries. A handler receives the previous
// handler's full data and returns full data (never a patch); a handler that does not care returns `data` as is.
// Handlers are trusted code (registering one is a trust decision), but the core still checks the data shape after
// every handler and refuses a `before_request` that changes the request origin.
import type { ContentPart, ImagePart, Message, ToolSchema } from '../contracts';

export interface BudgetSettings {
  context_window: number;
  max_tokens: number;
  /** Fraction of the window kept free (seed 000 §7 default .02). */
  safety: number;
  /** Fraction of the window for tool output (seed 000 §7 default .02). */
  tool_ratio: number;
  /** Trigger ratio of the window (default .8). */
  threshold: number;
  /** Tokens planned per image (no usage predicts new images). */
  image_tokens: number;
}

export interface BudgetEstimate {
  fits: boolean;
  /** Estimated input tokens of the next request. */
  estimate: number;
  /** Where compaction triggers: min(window × threshold, window − max_tokens − safety × window). */
  trigger: number;
  /** Token allowance for each pending tool result. */
  tool_budget: number;
  /** 'utf8_bytes' (conservative) or 'usage' (anchored on the previous response). */
  method: string;
}

export interface HookDataMap {
  /** Contract: may adjust the loaded `messages` (e.g. metadata); a failure refuses to load the session. */
  session_load: { messages: Message[]; session: string };
  /** Contract: returns the static system `prompt`; a failure fails the turn before any request. */
  system_prompt: { prompt: string };
  /** Contract: returns the (possibly rewritten) user `content`; a failure fails the turn before any request. */
  user_input: { content: string | ContentPart[] };
  /** Contract: may append steering/reference messages to `messages`; a failure fails the turn. */
  before_turn: { messages: Message[] };
  /** Contract: returns the budget verdict (`fits`, `estimate`, ...); a failure blocks the model request. */
  context_budget: {
    model: string;
    budget: BudgetSettings | null;
    history: Message[];
    tools: ToolSchema[];
    pending_calls: number;
    compact: boolean;
    result: BudgetEstimate;
  };
  /**
   * Contract: chooses `cut` (index into `history`, null = no compaction) and optional `state`; a failure commits
   * nothing. `manual`: the person asked to compact now (`/compact`), whether or not the budget fits.
   */
  compact_plan: { budget: BudgetEstimate; history: Message[]; cut: number | null; state?: unknown; manual?: boolean };
  /** Contract: returns a summary `prompt` (with text/images) or a local `summary`; a failure commits nothing. */
  before_compact: {
    messages: Message[];
    cut: number;
    state?: unknown;
    model: string;
    policy: Record<string, unknown>;
    prompt?: string;
    summary?: string;
    images?: ImagePart[];
  };
  /** Contract: checks/adjusts `summary`; a failure commits nothing and keeps the original history. */
  after_compact: { summary: string; state?: unknown };
  /**
   * Contract: restores snapshots into `messages` before the final budget check; a failure commits nothing. The core
   * has already put back the memory/skills snapshot the kept part lost (`snapshotToRestore`, after the summary).
   */
  before_compact_commit: { messages: Message[]; summary: string; state?: unknown };
  /** Contract: may change same-origin `url` and `body`, and `request_meta` (never sent); another origin is refused. */
  before_request: {
    url: string;
    body: Record<string, unknown>;
    protocol: string;
    model: string;
    request_meta: Record<string, unknown>;
  };
  /** Contract: notification before each physical retry; the return value never changes the request. */
  request_retry: { request_meta: Record<string, unknown>; attempt: number; reason: string };
  /** Contract: sees the raw `response` before the provider parses it; may return it adjusted; a failure fails the request. */
  after_response: { response: unknown; request_meta: Record<string, unknown> };
  /** Contract: may replace the whole call: `name` and `arguments` (the raw JSON string); a failure becomes a tool error. */
  before_tool: { id: string; name: string; arguments: string };
  /** Contract: answers `decision` allow | ask | deny; an invalid answer or a failure denies. */
  tool_approval: {
    name: string;
    arguments: Record<string, unknown>;
    external: boolean;
    decision: 'allow' | 'ask' | 'deny';
  };
  /** Contract: may adjust `output`/`images`, also for tool errors (`error` true); a failure becomes a tool error. */
  after_tool: { id: string; name: string; output: string; images?: ImagePart[]; error: boolean };
  /** Contract: validates the full history before it is saved; a failure (throw) refuses the save, the last checkpoint stays. */
  before_save: { messages: Message[]; path: string };
  /** Contract: confirmation after a successful save; a failure is reported but the checkpoint stands. */
  after_save: { messages: Message[]; path: string };
  /** Contract: sees the finished `messages`; a failure is reported, the turn's result stands. */
  finish: { messages: Message[]; stop_reason: string };
}

export type HookEvent = keyof HookDataMap;

export const HOOK_EVENTS: readonly HookEvent[] = [
  'session_load',
  'system_prompt',
  'user_input',
  'before_turn',
  'context_budget',
  'compact_plan',
  'before_compact',
  'after_compact',
  'before_compact_commit',
  'before_request',
  'request_retry',
  'after_response',
  'before_tool',
  'tool_approval',
  'after_tool',
  'before_save',
  'after_save',
  'finish',
];

export interface HookContext {
  signal: AbortSignal;
}

/**
 * A registered hook: a built-in profile module (in-process) or a manifest hook (a bridge worker). `handle` gets
 * the event name because one handler may subscribe to `*`.
 */
export interface HookHandler {
  /** Shown in errors: "Hook \"budget\" returned ...". */
  name: string;
  /** 'profile' modules run before 'manifest' hooks, each group in registration (manifest) order. */
  source: 'profile' | 'manifest';
  events: ReadonlyArray<HookEvent | '*'>;
  handle(event: HookEvent, data: unknown, ctx: HookContext): unknown;
}
