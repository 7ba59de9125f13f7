// The approval gate's settings and ports (seed 000 §4–§5, approval.json: mode ask|auto, deny_tools).
import type { PreparedCall } from '../contracts';
import type { ApprovalDecision, DecidingRule, RuleSet } from './rules';

export type { ApprovalDecision };

export interface ApprovalSettings {
  /**
   * 'ask' (default): tools that are not free ask the person. 'auto': they run without asking unless `deny_tools`
   * or a `tool_approval` policy says otherwise (a policy answering 'ask' still asks).
   */
  mode: 'ask' | 'auto';
  /** Tool names that never run, whatever a policy or yolo says. */
  deny_tools: string[];
  /** Explicit `--yolo` / `--dangerously-skip-permissions`: every 'ask' becomes allow; 'deny' still denies. */
  yolo: boolean;
  /** The person's approval rules (workspace then global), compiled for the turn. Absent: none. */
  rules?: RuleSet;
  /**
   * Whether shell commands run inside the OS sandbox (headless `--sandbox on`, the default). Mode auto runs a
   * sandboxed command without network unasked and asks about every other one; absent counts as unsandboxed.
   */
  sandbox?: boolean;
}

export const DEFAULT_APPROVAL: ApprovalSettings = { mode: 'ask', deny_tools: [], yolo: false };

/** What the person is shown. */
export interface ApprovalRequest {
  callId: string;
  name: string;
  arguments: Record<string, unknown>;
  external: boolean;
  prepared: PreparedCall | undefined;
}

/**
 * The person's answer: 'allow' / 'deny', or the object form, which can carry why they denied (the model receives
 * the reason, bounded and quoted as the person's words, in the tool error), or — allowing a tool that offers a
 * review (`prepared.review`: write, edit) — the content the person edited the proposal into: the tool writes it
 * instead of its own and tells the model so.
 */
export type ApprovalAnswer =
  'allow' | 'deny' | { decision: 'allow' | 'deny'; reason?: string } | { decision: 'allow'; content: string };

/**
 * The port the UI implements (a dialog; the headless runner has none). Contract: resolves an ApprovalAnswer;
 * anything else, a rejection or an abort counts as deny.
 */
export type AskPerson = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

export interface ApprovalOutcome {
  allowed: boolean;
  /** Who decided: 'free' default, 'auto'/'yolo' mode, 'rule', 'policy', 'person', 'deny_tools', 'no-person'. */
  by: string;
  /** For refusals: the sentence the model receives as the tool error. */
  reason?: string;
  code?: string;
  /** The approval rule that decided (by 'rule'), shown on the tool card. */
  rule?: DecidingRule;
  /** Allowed by the person with their own version of the content (a tool with `prepared.review` writes it). */
  content?: string;
}
