// The agent loop's inputs, ports and outputs. The loop is a plain function with its model stream injected
// (STYLE.md §6): tests pass a scripted stream, the app and the headless runner pass the provider transport.
import type { ProviderBinding } from '../config';
import type { ErrorData } from '../contracts';
import type { CommandChanges, WorkspaceFs } from '../contracts';
import type { BudgetSettings, HookPipeline } from '../hooks';
import type { ApprovalRequest, ApprovalSettings, AskPerson, DecidingRule } from '../approval';
import type { AssistantMessage, ContentPart, FinishReason, Message, StreamEvent, Usage } from '../contracts';
import type { ContextState } from '../modules';
import type { ToolRegistry } from '../tools';
import type { ToolSelector } from '../tool-views';
import type { ResultViews } from './result-views';
import type { CompactionInfo, ContextSize, StepUsage } from '../contracts';

export type { ModelCall, StreamFn, CheckpointSink } from '../contracts';
import type { StreamFn, CheckpointSink } from '../contracts';

export interface ModelSettings {
  protocol: string;
  base_url: string;
  model: string;
  max_tokens: number;
  use_max_tokens: boolean;
  extra_body: Record<string, unknown>;
  /**
   * How tools reach the model (issue 17). 'native' (default): the provider's `tools` field and tool messages.
   * 'json': no `tools` field; the JSON action protocol's instructions and schemas are in the request (json-actions/).
   */
  tool_protocol?: 'native' | 'json';
  /** Null: no budget configured; requests are not budget-checked (seed 000 §7 has no capacity table). */
  budget: BudgetSettings | null;
  /** The explicit provider worker binding (model config `provider`); usage anchors are bound to it (seed 003). */
  provider?: ProviderBinding | null;
}

export interface TurnDeps {
  stream: StreamFn;
  tools: ToolRegistry;
  hooks: HookPipeline;
  approval: ApprovalSettings;
  /** The UI's approval dialog; absent in headless runs (then 'ask' means deny). */
  askPerson?: AskPerson;
  fs: WorkspaceFs;
  workspaceId: string;
  session?: CheckpointSink;
  signal?: AbortSignal;
  /**
   * What the memory/skills context should show now (web/core/modules `contextState`; a member is undefined when
   * its module is disabled or bound). Read at the turn start and before every later model request; changes are
   * appended as an untrusted snapshot/delta message. Absent: nothing is injected.
   */
  context?: () => Promise<ContextState> | ContextState;
  /**
   * Bounded tool-result views (seed 002): results over 4096 bytes reach the model as a 512-byte preview and a
   * reference in this store, readable with `read_result` in this scope (`turnResultViews`). Absent: whole results.
   */
  results?: ResultViews;
  /**
   * Checkpoints of the files tools change (web/core/checkpoints `turnCheckpoints`, issue 16): the fs one tool call
   * gets, which stores each file's state before and after every write or delete it mediates. Absent: `fs` as is.
   */
  checkpoints?: {
    fsFor(call: { id: string; name: string; step: number }, fs: WorkspaceFs): WorkspaceFs;
    /**
     * Set where the host can watch what a command changes (headless `i` over a real folder, issue 31): the
     * `ToolContext.commandChanges` one tool call gets, so a tool that runs a command (shell) records the files it
     * created, modified or deleted like an edit. Absent (the app, whose commands run in i-bridge): no such field.
     */
    commandChangesFor?(call: { id: string; name: string; step: number }): CommandChanges;
  };
  /**
   * Which registered tools the model sees (web/core/tool-views, seed 002): a selector returning names, re-checked
   * and limited by the core. Absent: the grouped selector without a config (every tool, within the limits).
   */
  toolView?: ToolSelector;
}

export interface TurnInput {
  model: ModelSettings;
  /** The conversation so far (a loaded checkpoint), possibly empty. */
  history: Message[];
  content: string | ContentPart[];
  /**
   * Used when `history` has no system message yet; goes through `system_prompt`. Default: the embedded prompt
   * (web/core/modules `resolveSystemPrompt`) with `{{workspace}}` = `deps.fs.rootName`.
   */
  systemPrompt?: string;
  /** Model calls per turn before it stops with 'step_limit' (default 50). */
  maxSteps?: number;
  /** Stamped on the person's message (`_turn`) and on the turn's undo marker, so "Rewind to here" finds the turn's files. */
  turnId?: string;
  /**
   * A compaction-only turn (`/compact`, `i --compact`): no user message, no answer; the current history is
   * compacted now (budget or not) with the optional focus text, and checkpointed. `content` is ignored. Nothing to
   * fold → `E_COMPACT_NOTHING_TO_FOLD`, nothing changed.
   */
  compact?: { focus?: string };
  /**
   * A turn that fails before any checkpoint held its prompt saves the prompt anyway, the error on it as `_failed`
   * (the app: a reload shows both and Retry replaces it). Off (headless `i`): the session stays as it was, so
   * running the same command again is the retry.
   */
  keepFailedPrompt?: boolean;
}

export type StopReason =
  'stop' | 'length' | 'content_filter' | 'incomplete' | 'step_limit' | 'budget' | 'aborted' | 'error';

export interface ToolCallRecord {
  id: string;
  name: string;
  step: number;
  /** True when `execute` was entered: side effects may have happened (a batch is not a transaction). */
  ran: boolean;
  error: boolean;
  code?: string;
}

export interface TurnResult {
  stopReason: StopReason;
  messages: Message[];
  /** Text of the final assistant message ('' if none). */
  text: string;
  steps: number;
  toolCalls: ToolCallRecord[];
  /** Σ of the turn's model calls (answers and compaction summaries), each in seed 000 §8's accounting as its `usage` event. */
  usage: Usage;
  error?: ErrorData;
}

/** Events out of the loop for the UI and `i --json`. */
export type AgentEvent =
  | { type: 'turn-start'; session: string | null }
  | { type: 'step-start'; step: number }
  | { type: 'model'; step: number; event: StreamEvent }
  | { type: 'assistant'; step: number; message: AssistantMessage; finishReason: FinishReason }
  | { type: 'batch-invalid'; step: number; errors: Array<{ index: number; id: string | null; message: string }> }
  | { type: 'tool-start'; step: number; id: string; name: string; arguments: Record<string, unknown> }
  | { type: 'approval-needed'; step: number; request: ApprovalRequest }
  | { type: 'approval'; step: number; id: string; name: string; allowed: boolean; by: string; rule?: DecidingRule }
  | {
      type: 'tool-result';
      step: number;
      id: string;
      name: string;
      output: string;
      error: boolean;
      code?: string;
      images: number;
    }
  /**
   * After every model call (answers and compaction summaries): what it used, and the size of the NEXT request
   * (the history including this answer, and the tool schemas). `compact`: the call was a compaction summary.
   */
  | { type: 'usage'; step: number; usage: StepUsage; context: ContextSize; compact?: true }
  /** A compaction summary is being requested now (its text streams as `model` events until `compacted`). */
  | { type: 'compacting'; step: number; manual: boolean }
  /** A compaction was committed: `removed` messages folded into `summary` (also on the summary message's `_meta`). */
  | { type: 'compacted'; step: number; removed: number; compaction: CompactionInfo; summary: string }
  /** A compaction failed (any part of the chain): nothing was committed, the history is unchanged. */
  | { type: 'compaction-failed'; step: number; error: ErrorData }
  | { type: 'checkpoint'; step: number; messages: number; path: string }
  | { type: 'warning'; step: number; error: ErrorData }
  | { type: 'done'; result: TurnResult }
  | { type: 'error'; error: ErrorData; result: TurnResult };
