// The one approval gate every tool call passes (seed 000 §5). Order:
//   1. deny_tools → deny (final: no policy, person or yolo can allow it);
//   2. default decision: 'allow' for free tools (read, view_image), for mode 'auto' and for yolo; else 'ask';
//   2b. the person's approval rules (rules.ts), when one matches, replace that default; a deny rule is final;
//   3. `tool_approval` hooks (the policy) may answer allow | ask | deny; an invalid answer or a failure denies;
//   4. 'ask' under yolo → allow; otherwise the injected askPerson port decides (a deny may carry the person's reason,
//      which the model receives quoted and bounded as their words); without one → deny.
// A write the workspace write policy marks always-ask (`prepared.alwaysAsk`: .vscode/, .envrc, CI workflows…) starts
// at 'ask' even in mode auto, and a policy answering 'allow' does not skip the question (a hook cannot vouch for a
// file that runs code when the folder is opened); a policy may still deny. Explicit yolo still allows it: a yolo
// run has nobody to ask, and the person chose to run everything. `.git` never reaches the gate: prepare refuses it.
// Shell commands (issue 31): rules judge the command (command-rules.ts); mode auto runs a command unasked only
// inside the sandbox and without network (`shellAutoAsks`), the rest asks unless a rule allows it; a deny rule that
// cannot see the command's program asks.
import { HarnessError, quoteUntrusted } from '../contracts';
import type { HookPipeline } from '../hooks';
import type { ToolDefinition } from '../contracts';
import { describeRule } from './rules';
import { shellAutoAsks, shellCommandOf } from './command-rules';
import type { ApprovalDecision, ApprovalOutcome, ApprovalRequest, ApprovalSettings, AskPerson } from './types';

export interface GateInput {
  tool: ToolDefinition;
  request: ApprovalRequest;
  settings: ApprovalSettings;
  hooks: HookPipeline;
  askPerson: AskPerson | undefined;
  signal: AbortSignal;
}

export function defaultDecision(tool: ToolDefinition, settings: ApprovalSettings, alwaysAsk = false): ApprovalDecision {
  if (settings.deny_tools.includes(tool.schema.name)) return 'deny';
  if (alwaysAsk) return settings.yolo ? 'allow' : 'ask';
  if (tool.approval === 'free' && !tool.external) return 'allow';
  if (settings.yolo || settings.mode === 'auto') return 'allow';
  return 'ask';
}

export async function decideApproval(input: GateInput): Promise<ApprovalOutcome> {
  const { tool, request, settings, hooks, askPerson, signal } = input;
  const name = tool.schema.name;
  if (settings.deny_tools.includes(name)) {
    return refuse(
      'deny_tools',
      'E_TOOL_DENIED',
      `The tool "${name}" is in deny_tools of the approval settings, so it never runs. Do the task without it.`,
    );
  }
  const alwaysAsk = request.prepared?.alwaysAsk;
  let initial = defaultDecision(tool, settings, alwaysAsk !== undefined);
  // Mode auto's allow does not cover a command outside the sandbox or with network: the mode's default is ask.
  const shellAsks = settings.yolo ? undefined : shellAutoAsks(tool, request.arguments, settings.sandbox);
  if (initial === 'allow' && shellAsks !== undefined) initial = 'ask';
  let decision: ApprovalDecision = initial;
  let by =
    initial === 'allow'
      ? alwaysAsk
        ? 'yolo'
        : tool.approval === 'free' && !tool.external
          ? 'free'
          : settings.yolo
            ? 'yolo'
            : 'auto'
      : 'default';
  // The person's rules replace the mode's default (rules.ts has the order); a deny rule is final like deny_tools.
  // The rules judge the normalised path and, where the fs follows links (Node), the path it really reaches.
  const target = request.prepared?.target;
  const path = target?.path;
  const command = shellCommandOf(tool, request.arguments);
  let rule = settings.rules?.decide(tool, target, false, command) ?? undefined;
  if (rule?.decision === 'deny' && !rule.unsure) {
    const on =
      path === undefined
        ? ''
        : target?.realPath !== undefined
          ? ` on ${path} (a symbolic link to ${target.realPath})`
          : ` on ${path}`;
    return {
      ...refuse(
        'rule',
        'E_TOOL_DENIED',
        `The approval rule "${describeRule(rule)}" (${rule.scope}) denies "${name}"${on}${command !== undefined ? ' (the command or a part of it starts with the words it names)' : ''}, so it was not run. Do the task another way or ask the person.`,
      ),
      rule,
    };
  }
  if (rule) {
    // A protected path (always-ask) still asks under an allow rule: only explicit yolo writes it unasked.
    decision = rule.unsure ? 'ask' : rule.decision === 'allow' && alwaysAsk && !settings.yolo ? 'ask' : rule.decision;
    by = 'rule';
  }
  if (hooks.has('tool_approval')) {
    try {
      const out = await hooks.run(
        'tool_approval',
        { name, arguments: structuredClone(request.arguments), external: tool.external, decision },
        { signal },
      );
      // A policy that confirms a rule's answer leaves the rule as the decider; any other answer is the policy's.
      if (!rule || out.decision !== decision) {
        decision = out.decision;
        by = 'policy';
        rule = undefined;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = HarnessError.isInstance(error) ? error.message : String(error);
      return refuse(
        'policy',
        'E_APPROVAL_POLICY_FAILED',
        `The approval policy failed, so "${name}" was not run (${reason}).`,
      );
    }
  }
  if (decision === 'deny')
    return refuse(
      by,
      'E_TOOL_DENIED',
      `The approval policy denied the tool "${name}". Do the task another way or ask the person.`,
    );
  if (decision === 'allow' && !(alwaysAsk && !settings.yolo)) return { allowed: true, by, ...(rule ? { rule } : {}) };
  if (settings.yolo) return { allowed: true, by: 'yolo' };
  if (!askPerson) {
    const why = alwaysAsk
      ? ` Writing ${request.prepared?.target?.path ?? 'this file'} always needs a person's approval because ${alwaysAsk.text}.`
      : rule?.unsure
        ? ` The approval rule "${describeRule(rule)}" cannot tell whether this command runs what it denies (its program is hidden behind a variable, a glob or unreadable syntax), so it asks.`
        : shellAsks !== undefined && by !== 'rule'
          ? ` Mode auto runs commands unasked only inside the sandbox and without network; here ${shellAsks}.`
          : '';
    return refuse(
      'no-person',
      'E_APPROVAL_REQUIRED',
      `The tool "${name}" needs the person's approval and nobody can approve it in this run (run with --yolo to allow tools).${why} It was not run.`,
    );
  }
  let answer: unknown;
  try {
    // The port receives the signal, but a port that ignores it must not keep a cancelled turn waiting.
    answer = await untilAborted(askPerson(request, signal), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    answer = 'deny';
  }
  const { decision: said, reason, content } = personAnswer(answer);
  if (said === 'allow') return { allowed: true, by: 'person', ...(content !== undefined ? { content } : {}) };
  if (reason === undefined)
    return refuse(
      'person',
      'E_TOOL_REJECTED',
      `The person declined the tool call "${name}". Do not repeat it; ask what they want instead.`,
    );
  // The reason is the person's own words: quoted and bounded, so it reads as their words and a pasted wall of text
  // cannot crowd out the rest of the context.
  return refuse(
    'person',
    'E_TOOL_REJECTED',
    `The person declined the tool call "${name}" and said why, in their own words: ${quoteUntrusted(reason, PERSON_REASON_MAX_CHARS)}. Do not repeat the same call; take what they said into account.`,
  );
}

/** Characters of a person's deny reason the model receives (the rest is cut, with the full length noted). */
export const PERSON_REASON_MAX_CHARS = 2000;

/** The decision and a non-empty reason of an answer (or, allowing, the person's content); anything else denies. */
function personAnswer(answer: unknown): { decision: 'allow' | 'deny'; reason?: string; content?: string } {
  if (answer === 'allow') return { decision: 'allow' };
  if (typeof answer !== 'object' || answer === null) return { decision: 'deny' };
  const { decision, reason, content } = answer as { decision?: unknown; reason?: unknown; content?: unknown };
  if (decision === 'allow') return typeof content === 'string' ? { decision: 'allow', content } : { decision: 'allow' };
  // One line: quoteUntrusted would show a line break as \x0a, which reads worse to the model than a space.
  const said = typeof reason === 'string' ? reason.replace(/\s*\n\s*/g, ' ').trim() : '';
  return said !== '' ? { decision: 'deny', reason: said } : { decision: 'deny' };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function refuse(by: string, code: string, reason: string): ApprovalOutcome {
  return { allowed: false, by, code, reason };
}
