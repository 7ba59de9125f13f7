// The page's side of approvals: each request from the agent becomes a PendingApproval card (the chat shows them
// inline), answered by the person or withdrawn when the agent stops waiting (its signal fires).
import type { Accessor, Setter } from 'solid-js';
import type { ErrorData } from '../../core/contracts';
import type { ApprovalAnswer, ApprovalRequest, ApprovalRule } from '../../core/page';
import type { PluginWriteRequest } from '../../core/page';
import { cardRuleMemory } from './card-rule';

export function approvalPorts(options: {
  sessionId: Accessor<string | null>;
  setApprovals: Setter<PendingApproval[]>;
  /** Stores a rule made from a card ("Always allow edit in src/") for the workspace; later turns read it. */
  saveRule?: (rule: ApprovalRule) => Promise<void>;
  /** A rule that could not be saved (the call was still allowed once). */
  onRuleError?: (error: ErrorData) => void;
}) {
  const { setApprovals } = options;
  /** "Always allow X in this session": tool names, per session, in memory only. */
  const alwaysAllowed = new Map<string, Set<string>>();
  /** Rules made from cards on this page: they also cover the rest of the turn already running. */
  const cardRules = cardRuleMemory();

  const askPerson = (request: ApprovalRequest, signal: AbortSignal) =>
    new Promise<ApprovalAnswer>((resolve, reject) => {
      const sid = options.sessionId();
      // A file the write policy always asks about is never covered by "always allow" (it offers none).
      if (sid && alwaysAllowed.get(sid)?.has(request.name) && !request.prepared?.alwaysAsk) return resolve('allow');
      if (cardRules.allows(request)) return resolve('allow');
      const remove = () => setApprovals((all) => all.filter((a) => a !== pending));
      const pending: PendingApproval = {
        request,
        answer(decision, always, reason, content) {
          remove();
          if (typeof always === 'object' && decision === 'allow') {
            cardRules.add(always);
            options.saveRule?.(always).catch((error: unknown) => options.onRuleError?.(error as ErrorData));
          } else if (always && decision === 'allow' && sid) {
            if (!alwaysAllowed.has(sid)) alwaysAllowed.set(sid, new Set());
            alwaysAllowed.get(sid)!.add(request.name);
          }
          // Edited content goes only with an allow (the tool writes the person's version instead of its own).
          if (decision === 'allow' && content !== undefined) resolve({ decision, content });
          else resolve(decision === 'deny' && reason?.trim() ? { decision, reason: reason.trim() } : decision);
        },
      };
      signal.addEventListener('abort', () => {
        remove();
        reject(new Error('stopped'));
      });
      setApprovals((all) => [...all, pending]);
    });

  // Each fs.write of a plugin tool in mode 'ask': the same inline card, showing the path and the diff.
  const askWrite = (write: PluginWriteRequest, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (signal.aborted) return resolve(false);
      const remove = () => setApprovals((all) => all.filter((a) => a !== pending));
      const pending: PendingApproval = {
        request: {
          callId: write.callId,
          name: write.tool,
          arguments: { path: write.path },
          external: true,
          prepared: {
            summary: write.path,
            detail: write.diff,
            target: { path: write.path, ...(write.rawPath !== undefined ? { raw: write.rawPath } : {}) },
            ...(write.alwaysAsk ? { alwaysAsk: write.alwaysAsk } : {}),
          },
        },
        write,
        answer(decision) {
          remove();
          resolve(decision === 'allow');
        },
      };
      signal.addEventListener('abort', () => pending.answer('deny'), { once: true });
      setApprovals((all) => [...all, pending]);
    });

  return { askPerson, askWrite };
}

/** One approval card waiting for the person. */
export interface PendingApproval {
  request: ApprovalRequest;
  /** Set for one fs.write inside a running plugin tool (path and diff); such a card has no "always allow". */
  write?: PluginWriteRequest;
  /**
   * `always`: true allows the tool for this session; a rule (from the card) is saved for the workspace. `content`:
   * the person's edit of a reviewed write/edit (sent with an allow only).
   */
  answer(decision: 'allow' | 'deny', always?: boolean | ApprovalRule, reason?: string, content?: string): void;
}
