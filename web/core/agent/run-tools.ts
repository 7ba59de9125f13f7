// Runs one validated tool-call batch, call by call: before_tool → argument schema → prepare (snapshot) →
// approval gate → execute → after_tool → bounded result view → image checks. Every call ends as exactly one tool message, so the
// history stays valid whatever happens. A failed call is never retried automatically.
import { decideApproval, type ApprovalRequest, type DecidingRule } from '../approval';
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import type { HookPipeline } from '../hooks';
import type { ImagePart, Message, ToolMessage, UserMessage } from '../contracts';
import type { PreparedCall, ToolContext, ToolResult } from '../contracts';
import { parseArguments, type ValidCall } from './batch';
import { truncateToBytes } from './budget';
import { checkToolImages } from '../contracts';
import { boundedOutput, resultSourceId } from './result-views';
import type { AgentEvent, ToolCallRecord, TurnDeps } from './types';

interface Outcome {
  id: string;
  name: string;
  output: string;
  error: boolean;
  code?: string;
  images: ImagePart[];
  ran: boolean;
  /** The whole output when the model sees less of it (a bounded view or the budget's cut): kept for the log. */
  full?: string;
  /** Who decided the call (and the approval rule, when one did): kept on the tool message for its card. */
  decided?: { by: string; rule?: DecidingRule };
  /** The tool ran in another process (i-bridge, an MCP server): files it changed are outside the undo history. */
  outsideUndo?: true;
}

export interface BatchRun {
  /** Tool messages in call order, then one user image message per call that returned images. */
  messages: Message[];
  records: ToolCallRecord[];
}

const stopped = (id: string, name: string): Outcome => ({
  id,
  name,
  output: 'Not run: the turn was stopped before this call.',
  error: true,
  code: 'E_ABORTED',
  images: [],
  ran: false,
});

export async function runBatch(
  calls: ValidCall[],
  step: number,
  deps: TurnDeps,
  signal: AbortSignal,
  toolBudget: number,
  emit: (e: AgentEvent) => void,
): Promise<BatchRun> {
  const outcomes: Outcome[] = [];
  let imagesAccepted = 0;
  for (const call of calls) {
    if (signal.aborted) {
      outcomes.push(stopped(call.id, call.name));
      continue;
    }
    let outcome = await runOne(call, step, deps, signal, emit);
    outcome = await afterTool(outcome, deps.hooks, signal);
    // The bounded view (seed 002) first, then the budget's per-call cap on what is left.
    // Whatever the model is shown, the log keeps what the tool returned (after after_tool) whole (seed 002).
    const whole = outcome.output;
    if (deps.results) {
      outcome = {
        ...outcome,
        output: await boundedOutput(
          deps.results,
          resultSourceId(deps.results, step, outcome.id),
          outcome.name,
          outcome,
        ),
      };
    }
    const verdict = checkToolImages(outcome.images, imagesAccepted);
    imagesAccepted += verdict.accepted.length;
    const shown = outcome.output;
    const output = truncateToBytes([shown, ...verdict.notes].join('\n'), toolBudget);
    const cut = shown !== whole || !output.startsWith(whole);
    outcome = { ...outcome, output, images: verdict.accepted, ...(cut ? { full: whole } : {}) };
    outcomes.push(outcome);
    emit({
      type: 'tool-result',
      step,
      id: outcome.id,
      name: outcome.name,
      output: outcome.output,
      error: outcome.error,
      ...(outcome.code ? { code: outcome.code } : {}),
      images: outcome.images.length,
    });
  }
  const tools: ToolMessage[] = outcomes.map((o) => ({
    role: 'tool',
    tool_call_id: o.id,
    content: o.output,
    ...(o.error ? { _error: true } : {}),
    ...(o.full !== undefined ? { _full_output: o.full } : {}),
    ...(o.decided ? { _approval: o.decided } : {}),
    ...(o.outsideUndo ? { _outside_undo: true } : {}),
  }));
  const images: UserMessage[] = outcomes
    .filter((o) => o.images.length > 0)
    .map((o) => ({
      role: 'user',
      content: [{ type: 'text', text: `Images returned by tool call ${o.id} (${o.name}):` }, ...o.images],
      _meta: { kind: 'tool_images', tool_call_id: o.id },
    }));
  return {
    messages: [...tools, ...images],
    records: outcomes.map((o) => ({
      id: o.id,
      name: o.name,
      step,
      ran: o.ran,
      error: o.error,
      ...(o.code ? { code: o.code } : {}),
    })),
  };
}

function failed(id: string, name: string, error: ErrorData | HarnessError, ran = false): Outcome {
  const e = HarnessError.isInstance(error) ? error.toJSON() : error;
  return { id, name, output: `Error ${e.code}: ${e.message}`, error: true, code: e.code, images: [], ran };
}

async function runOne(
  call: ValidCall,
  step: number,
  deps: TurnDeps,
  signal: AbortSignal,
  emit: (e: AgentEvent) => void,
): Promise<Outcome> {
  let { name } = call;
  let raw = call.rawArguments;
  // before_tool sees the raw JSON string so a hook can replace the whole call (seed 000 §5).
  if (deps.hooks.has('before_tool')) {
    try {
      const out = await deps.hooks.run('before_tool', { id: call.id, name, arguments: raw }, { signal });
      name = out.name;
      raw = out.arguments;
    } catch (error) {
      if (signal.aborted) return stopped(call.id, name);
      return failed(call.id, name, toErrorData(error));
    }
  }
  const tool = deps.tools.get(name);
  if (!tool) return failed(call.id, name, { code: 'E_TOOL_UNKNOWN', message: `No tool named "${name}" is available.` });
  const parsed = parseArguments(raw);
  if (!parsed.ok)
    return failed(call.id, name, {
      code: 'E_TOOL_ARGUMENTS',
      message: `The arguments of ${name} are invalid: ${parsed.message}.`,
    });
  const args = parsed.value;
  const problems = deps.tools.checkArguments(name, args);
  if (problems.length > 0) {
    return failed(call.id, name, {
      code: 'E_TOOL_ARGUMENTS',
      message: `The arguments of ${name} do not match its schema. ${problems.slice(0, 5).join('; ')}. Fix the arguments and call again.`,
    });
  }
  emit({ type: 'tool-start', step, id: call.id, name, arguments: args });
  const ctx: ToolContext = {
    fs: deps.checkpoints ? deps.checkpoints.fsFor({ id: call.id, name, step }, deps.fs) : deps.fs,
    workspaceId: deps.workspaceId,
    callId: call.id,
    signal,
  };
  const commandChanges = deps.checkpoints?.commandChangesFor?.({ id: call.id, name, step });
  if (commandChanges) ctx.commandChanges = commandChanges;
  let prepared: PreparedCall | undefined;
  if (tool.prepare) {
    try {
      prepared = await tool.prepare(args, ctx);
    } catch (error) {
      if (signal.aborted) return stopped(call.id, name);
      return failed(call.id, name, toErrorData(error, 'E_TOOL_FAILED'));
    }
  }
  const request: ApprovalRequest = { callId: call.id, name, arguments: args, external: tool.external, prepared };
  const askPerson = deps.askPerson
    ? (req: ApprovalRequest, s: AbortSignal) => {
        emit({ type: 'approval-needed', step, request: req });
        return deps.askPerson!(req, s);
      }
    : undefined;
  let approval;
  try {
    approval = await decideApproval({ tool, request, settings: deps.approval, hooks: deps.hooks, askPerson, signal });
  } catch (error) {
    if (signal.aborted) return stopped(call.id, name);
    return failed(call.id, name, toErrorData(error, 'E_APPROVAL_POLICY_FAILED'));
  }
  emit({
    type: 'approval',
    step,
    id: call.id,
    name,
    allowed: approval.allowed,
    by: approval.by,
    ...(approval.rule ? { rule: approval.rule } : {}),
  });
  const decided = { by: approval.by, ...(approval.rule ? { rule: approval.rule } : {}) };
  if (!approval.allowed)
    return {
      ...failed(call.id, name, {
        code: approval.code ?? 'E_TOOL_DENIED',
        message: approval.reason ?? 'The tool call was not approved.',
      }),
      decided,
    };
  if (signal.aborted) return stopped(call.id, name);
  if (approval.content !== undefined) {
    // Only a built-in tool that offered the whole content for review writes the person's version; any other would
    // run its own proposal and the person's edit would be lost without a word.
    if (!prepared?.review || tool.external) {
      return {
        ...failed(call.id, name, {
          code: 'E_APPROVAL_EDIT_UNSUPPORTED',
          message: `The person edited what ${name} would do before allowing it, but ${name} cannot take edited content, so it was not run. Ask the person how to go on.`,
        }),
        decided,
      };
    }
    ctx.approved = { content: approval.content };
  }
  let result: ToolResult;
  try {
    result = await tool.execute(args, ctx, prepared);
  } catch (error) {
    return failed(call.id, name, toErrorData(error, 'E_TOOL_FAILED'), true);
  }
  if (typeof result?.output !== 'string') {
    return failed(
      call.id,
      name,
      { code: 'E_TOOL_RESULT_INVALID', message: `The tool ${name} returned no text output.` },
      true,
    );
  }
  return {
    id: call.id,
    name,
    output: result.output,
    error: result.error === true,
    ...(result.error && result.code ? { code: result.code } : {}),
    images: Array.isArray(result.images) ? result.images : [],
    ran: true,
    decided,
    ...(tool.origin?.kind === 'bridge' || tool.origin?.kind === 'mcp' ? { outsideUndo: true as const } : {}),
  };
}

async function afterTool(o: Outcome, hooks: HookPipeline, signal: AbortSignal): Promise<Outcome> {
  if (!hooks.has('after_tool')) return o;
  try {
    const out = await hooks.run(
      'after_tool',
      { id: o.id, name: o.name, output: o.output, error: o.error, ...(o.images.length ? { images: o.images } : {}) },
      { signal },
    );
    return { ...o, output: out.output, error: out.error, images: out.images ?? [] };
  } catch (error) {
    const e = toErrorData(error);
    return { ...o, output: `Error ${e.code}: ${e.message}`, error: true, code: e.code, images: [] };
  }
}
