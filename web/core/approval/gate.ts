// The one approval gate every tool call passes (seed 000 §5). Order:
//   1. deny_tools → deny (final: no policy, person or yolo can allow it);
//   2. default decision: 'allow' for free tools (read, view_image), for mode 'auto' and for yolo; else 'ask';
//   3. `tool_approval` hooks (the policy) may answer allow | ask | deny; an invalid answer or a failure denies;
//   4. 'ask' under yolo → allow; otherwise the injected askPerson port decides; without one → deny.
// A write the workspace write policy marks always-ask (`prepared.alwaysAsk`: .vscode/, .envrc, CI workflows…) starts
// at 'ask' even in mode auto, and a policy answering 'allow' does not skip the question (a hook cannot vouch for a
// file that runs code when the folder is opened); a policy may still deny. Explicit yolo still allows it: a yolo
// run has nobody to ask, and the person chose to run everything. `.git` never reaches the gate: prepare refuses it.
import { HarnessError } from '../errors';
import type { HookPipeline } from '../hooks';
import type { ToolDefinition } from '../tools/types';
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
    return refuse('deny_tools', 'E_TOOL_DENIED', `The tool "${name}" is in deny_tools of the approval settings, so it never runs. Do the task without it.`);
  }
  const alwaysAsk = request.prepared?.alwaysAsk;
  const initial = defaultDecision(tool, settings, alwaysAsk !== undefined);
  let decision: ApprovalDecision = initial;
  let by = initial === 'allow' ? (alwaysAsk ? 'yolo' : tool.approval === 'free' && !tool.external ? 'free' : settings.yolo ? 'yolo' : 'auto') : 'default';
  if (hooks.has('tool_approval')) {
    try {
      const out = await hooks.run('tool_approval', { name, arguments: structuredClone(request.arguments), external: tool.external, decision }, { signal });
      decision = out.decision;
      by = 'policy';
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = HarnessError.isInstance(error) ? error.message : String(error);
      return refuse('policy', 'E_APPROVAL_POLICY_FAILED', `The approval policy failed, so "${name}" was not run (${reason}).`);
    }
  }
  if (decision === 'deny') return refuse(by, 'E_TOOL_DENIED', `The approval policy denied the tool "${name}". Do the task another way or ask the person.`);
  if (decision === 'allow' && !(alwaysAsk && !settings.yolo)) return { allowed: true, by };
  if (settings.yolo) return { allowed: true, by: 'yolo' };
  if (!askPerson) {
    const why = alwaysAsk ? ` Writing ${request.prepared?.target?.path ?? 'this file'} always needs a person's approval because ${alwaysAsk.text}.` : '';
    return refuse('no-person', 'E_APPROVAL_REQUIRED', `The tool "${name}" needs the person's approval and nobody can approve it in this run (run with --yolo to allow tools).${why} It was not run.`);
  }
  let answer: unknown;
  try {
    // The port receives the signal, but a port that ignores it must not keep a cancelled turn waiting.
    answer = await untilAborted(askPerson(request, signal), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    answer = 'deny';
  }
  if (answer === 'allow') return { allowed: true, by: 'person' };
  return refuse('person', 'E_TOOL_REJECTED', `The person declined the tool call "${name}". Do not repeat it; ask what they want instead.`);
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
