// The built-in tools `shell`, `shell_output` and `shell_stop` (issue 31), over a ShellRunner port (node.ts in headless
// i). `shell {command, timeout_s?, background?, cwd?, network?}` runs one command in the workspace (inside the
// sandbox unless the person turned it off) and returns how it ended and its output; `background: true` returns an id
// at once, `shell_output {id}` the output since the last read and the status, `shell_stop {id}` ends it.
// Undo: before a command, `ctx.commandChanges.begin` (in prepare, so the approval card can say beforehand when the
// changes cannot be recorded); after it ends, however it ends, `finish`, whose summary goes into the result.
import { HarnessError, toErrorData } from '../contracts';
import type { CommandWatch, PreparedCall, ToolContext, ToolDefinition, ToolResult } from '../contracts';
import { guard, stringArg } from '../tools';
import { SHELL_TOOL } from '../approval';
import {
  SHELL_BACKGROUND_KEEP_FINISHED,
  SHELL_BACKGROUND_MAX,
  SHELL_BACKGROUND_UNREAD_BYTES,
  SHELL_COMMAND_MAX_CHARS,
  SHELL_DEFAULT_TIMEOUT_S,
  SHELL_LIVE_EVENT_BYTES,
  SHELL_LIVE_INTERVAL_MS,
  SHELL_LIVE_MAX_BYTES,
  SHELL_MAX_TIMEOUT_S,
  SHELL_OUTPUT_HEAD_BYTES,
  SHELL_OUTPUT_MAX_WAIT_S,
  SHELL_OUTPUT_TAIL_BYTES,
} from './limits';
import { HeldOutput, LiveOutput, UnreadOutput } from './output-buffer';
import { composeOutput, shellResult, statusLine, undoLine, type UndoOutcome } from './shell-result';
import type { ShellExit, ShellOutputEvent, ShellProcess, ShellRunner } from './types';
import { utf8Length } from '../context';

export const SHELL_OUTPUT_TOOL = 'shell_output';
export const SHELL_STOP_TOOL = 'shell_stop';
/** The names the shell tools take (reserved: no plugin, worker or MCP tool may shadow them). */
export const SHELL_TOOL_NAMES = [SHELL_TOOL, SHELL_OUTPUT_TOOL, SHELL_STOP_TOOL] as const;

export interface ShellToolsOptions {
  runner: ShellRunner;
  /** Live output of running commands (headless `--json`: `tool_output` events), bounded by LiveOutput. */
  onOutput?: (event: ShellOutputEvent) => void;
  /** Smaller limits for tests. */
  limits?: Partial<{
    headBytes: number;
    tailBytes: number;
    unreadBytes: number;
    backgroundMax: number;
    liveEventBytes: number;
    liveIntervalMs: number;
    liveMaxBytes: number;
  }>;
}

export interface ShellTools {
  tools: ToolDefinition[];
  /** Stops every background process still running (the run ends) and records their changes. */
  stopAll(): Promise<void>;
}

interface ShellArgs {
  command: string;
  timeoutS: number | null;
  background: boolean;
  cwd: string | undefined;
  network: boolean;
}

/** What prepare computed, handed to execute unchanged by the loop (`PreparedCall.state`). */
interface ShellState {
  kind: 'shell';
  args: ShellArgs;
  cwd: { path: string; shown: string };
  watch?: CommandWatch;
  /** begin() itself failed: nothing is recorded, and the card and result say so. */
  watchFailed?: { code: string; message: string };
}

interface Job {
  id: string;
  callId: string;
  command: string;
  startedAt: number;
  unread: UnreadOutput;
  proc: ShellProcess;
  exit: ShellExit | null;
  undo: UndoOutcome | undefined;
  /** Settles when it ended and its changes were recorded. */
  settled: Promise<void>;
  /** The end (status and undo line) was already reported by a shell_output or shell_stop. */
  reported: boolean;
  wake: Set<() => void>;
}

const argError = (tool: string, message: string) => new HarnessError('E_TOOL_ARGUMENTS', `${tool}: ${message}`);

function boolean(tool: string, args: Record<string, unknown>, key: string): boolean {
  const v = args[key];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw argError(tool, `At arguments.${key}: expected true or false.`);
  return v;
}

function parseShellArgs(args: Record<string, unknown>): ShellArgs {
  const command = stringArg(SHELL_TOOL, args, 'command', { nonEmpty: true })!;
  if (command.length > SHELL_COMMAND_MAX_CHARS)
    throw argError(
      SHELL_TOOL,
      `The command has ${command.length} characters; at most ${SHELL_COMMAND_MAX_CHARS}. Put a long script in a file and run that.`,
    );
  if (command.includes('\0'))
    throw argError(SHELL_TOOL, 'The command contains a NUL character, which no shell can take.');
  let timeoutS: number | null = null;
  if (args.timeout_s !== undefined) {
    const t = args.timeout_s;
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0 || t > SHELL_MAX_TIMEOUT_S)
      throw argError(
        SHELL_TOOL,
        `At arguments.timeout_s: expected seconds above 0 and at most ${SHELL_MAX_TIMEOUT_S}.`,
      );
    timeoutS = t;
  }
  return {
    command,
    timeoutS,
    background: boolean(SHELL_TOOL, args, 'background'),
    cwd: stringArg(SHELL_TOOL, args, 'cwd', { optional: true }),
    network: boolean(SHELL_TOOL, args, 'network'),
  };
}

/** The command as one line for a summary: its first line, bounded. */
function oneLine(command: string): string {
  const first = command.trim().split('\n')[0]!;
  const more = first.length < command.trim().length ? ' …' : '';
  return first.length > 120 ? `${first.slice(0, 119)}…` : `${first}${more}`;
}

export function shellTools(options: ShellToolsOptions): ShellTools {
  const { runner } = options;
  const limits = {
    headBytes: SHELL_OUTPUT_HEAD_BYTES,
    tailBytes: SHELL_OUTPUT_TAIL_BYTES,
    unreadBytes: SHELL_BACKGROUND_UNREAD_BYTES,
    backgroundMax: SHELL_BACKGROUND_MAX,
    liveEventBytes: SHELL_LIVE_EVENT_BYTES,
    liveIntervalMs: SHELL_LIVE_INTERVAL_MS,
    liveMaxBytes: SHELL_LIVE_MAX_BYTES,
    ...options.limits,
  };
  const jobs = new Map<string, Job>();
  let nextJob = 1;
  const sandboxed = runner.sandbox.kind !== 'off';

  const live = (callId: string, background?: string): LiveOutput | null => {
    const emit = options.onOutput;
    if (!emit) return null;
    return new LiveOutput(
      (text, cut) => emit({ callId, text, ...(background ? { background } : {}), ...(cut ? { cut } : {}) }),
      { eventBytes: limits.liveEventBytes, intervalMs: limits.liveIntervalMs, maxBytes: limits.liveMaxBytes },
    );
  };

  async function prepareShell(args: Record<string, unknown>, ctx: ToolContext): Promise<ShellState> {
    const parsed = parseShellArgs(args);
    await runner.check(); // E_SANDBOX_UNAVAILABLE before anything is asked or recorded
    const cwd = await runner.resolveCwd(parsed.cwd);
    const state: ShellState = { kind: 'shell', args: parsed, cwd };
    if (ctx.commandChanges) {
      try {
        state.watch = await ctx.commandChanges.begin(parsed.command);
      } catch (error) {
        const e = toErrorData(error, 'E_UNDO_SNAPSHOT_FAILED');
        state.watchFailed = { code: e.code, message: e.message };
      }
    }
    return state;
  }

  function undoBefore(state: ShellState, ctx: ToolContext): string {
    if (state.watchFailed)
      return `not recorded: the snapshot before the command failed (${state.watchFailed.code}: ${state.watchFailed.message})`;
    const untracked = state.watch?.untracked;
    if (untracked) return `not recorded (${untracked.code}): ${untracked.message}`;
    if (state.watch) return 'the files it creates, changes or deletes are recorded (--changes, --revert)';
    return ctx.commandChanges === undefined
      ? 'not recorded: this run keeps no undo history for commands'
      : 'not recorded';
  }

  function card(state: ShellState, ctx: ToolContext): PreparedCall {
    const { args, cwd } = state;
    const network = !sandboxed ? 'not restricted (no sandbox)' : args.network ? 'on (asked for by this call)' : 'off';
    const where = cwd.shown === '.' ? '' : ` in ${cwd.shown}`;
    const mode = sandboxed ? `sandbox on, network ${args.network ? 'on' : 'off'}` : 'NO sandbox';
    const detail = [
      `command: ${args.command}`,
      `cwd: ${cwd.shown} (${cwd.path})`,
      `sandbox: ${runner.sandbox.text}`,
      `network: ${network}`,
      args.background
        ? `background: runs until shell_stop or the end of this run${args.timeoutS !== null ? ` (at most ${args.timeoutS} s)` : ''}`
        : `timeout: ${args.timeoutS ?? SHELL_DEFAULT_TIMEOUT_S} s`,
      `undo: ${undoBefore(state, ctx)}`,
    ];
    return {
      summary: `${args.background ? 'Start in the background' : 'Run'}: ${oneLine(args.command)}${where} (${mode})`,
      detail: detail.join('\n'),
      state,
    };
  }

  async function finishWatch(state: ShellState): Promise<UndoOutcome | undefined> {
    if (state.watchFailed) return { kind: 'failed', ...state.watchFailed };
    if (!state.watch) return undefined;
    const untracked = state.watch.untracked;
    try {
      const summary = await state.watch.finish();
      return untracked ? { kind: 'untracked', ...untracked } : { kind: 'recorded', summary };
    } catch (error) {
      const e = toErrorData(error, 'E_UNDO_RECORD_FAILED');
      return untracked ? { kind: 'untracked', ...untracked } : { kind: 'failed', code: e.code, message: e.message };
    }
  }

  const stateOf = async (args: Record<string, unknown>, ctx: ToolContext, prepared?: PreparedCall) => {
    const s = prepared?.state as ShellState | undefined;
    return s?.kind === 'shell' ? s : prepareShell(args, ctx);
  };

  async function runForeground(state: ShellState, ctx: ToolContext): Promise<ToolResult> {
    const { args } = state;
    const timeoutMs = (args.timeoutS ?? SHELL_DEFAULT_TIMEOUT_S) * 1000;
    const held = new HeldOutput(limits.headBytes, limits.tailBytes);
    const stream = live(ctx.callId);
    const proc = runner.start(
      { command: args.command, cwd: state.cwd.path, network: args.network, timeoutMs },
      (text) => {
        held.push(text);
        stream?.push(text);
      },
    );
    const abort = () => proc.stop('aborted');
    ctx.signal.addEventListener('abort', abort, { once: true });
    let exit: ShellExit;
    try {
      exit = await proc.done;
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      stream?.end();
    }
    const undo = await finishWatch(state);
    return shellResult({
      exit,
      timeoutMs,
      ...(undo ? { undo } : {}),
      output: held.text(),
      total: held.total,
      dropped: held.dropped,
    });
  }

  function startBackground(state: ShellState, ctx: ToolContext): ToolResult {
    const running = [...jobs.values()].filter((j) => !j.exit);
    if (running.length >= limits.backgroundMax) {
      const ids = running.map((j) => j.id).join(', ');
      throw new HarnessError(
        'E_SHELL_BACKGROUND_LIMIT',
        `${limits.backgroundMax} background processes are already running (${ids}). Stop one with shell_stop before starting another.`,
      );
    }
    forgetFinished();
    const { args } = state;
    const id = `bg-${nextJob++}`;
    const stream = live(ctx.callId, id);
    const unread = new UnreadOutput(limits.unreadBytes);
    const wake = new Set<() => void>();
    const ring = () => {
      for (const w of [...wake]) w();
    };
    const proc = runner.start(
      {
        command: args.command,
        cwd: state.cwd.path,
        network: args.network,
        timeoutMs: args.timeoutS !== null ? args.timeoutS * 1000 : null,
      },
      (text) => {
        unread.push(text);
        stream?.push(text);
        ring();
      },
    );
    const job: Job = {
      id,
      callId: ctx.callId,
      command: args.command,
      startedAt: Date.now(),
      unread,
      proc,
      exit: null,
      undo: undefined,
      reported: false,
      wake,
      settled: proc.done.then(async (exit) => {
        stream?.end();
        job.undo = await finishWatch(state);
        job.exit = exit;
        ring();
      }),
    };
    jobs.set(id, job);
    const undo = state.watch?.untracked
      ? `\nundo: not recorded (${state.watch.untracked.code}): ${state.watch.untracked.message}`
      : '';
    return {
      output:
        `started in the background as ${id}${state.cwd.shown === '.' ? '' : ` in ${state.cwd.shown}`}. ` +
        `Read its output with shell_output {"id": "${id}"}, end it with shell_stop {"id": "${id}"}; it is stopped when this run of i ends.${undo}`,
    };
  }

  function forgetFinished(): void {
    const finished = [...jobs.values()].filter((j) => j.exit && j.reported);
    for (const j of finished.slice(0, Math.max(0, finished.length - SHELL_BACKGROUND_KEEP_FINISHED))) jobs.delete(j.id);
  }

  function jobFor(tool: string, args: Record<string, unknown>): Job {
    const id = stringArg(tool, args, 'id', { nonEmpty: true })!;
    const job = jobs.get(id);
    if (!job) {
      const known = [...jobs.keys()];
      throw new HarnessError(
        'E_SHELL_UNKNOWN_ID',
        `No background process "${id}" in this run${known.length ? ` (there are: ${known.join(', ')})` : ' (none was started)'}. Use the id shell returned for background: true.`,
        { id },
      );
    }
    return job;
  }

  /** Waits until the job has new output or ended, at most `ms`, or the call is aborted. */
  function waitFor(job: Job, ms: number, signal: AbortSignal): Promise<void> {
    if (job.exit || job.unread.pending || ms <= 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        job.wake.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      job.wake.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  function report(job: Job): ToolResult {
    const { text, dropped } = job.unread.take();
    const lines = [
      job.exit
        ? `${job.id} (${oneLine(job.command)}): ${statusLine(job.exit, null)}`
        : `${job.id} (${oneLine(job.command)}): running for ${((Date.now() - job.startedAt) / 1000).toFixed(1)} s`,
    ];
    if (job.exit && !job.reported) {
      job.reported = true;
      lines.push(undoLine(job.undo), ...(job.exit.notes ?? []));
    }
    if (dropped)
      lines.push(
        `${dropped} bytes of unread output were dropped (at most ${limits.unreadBytes} unread bytes are kept between reads)`,
      );
    const body = composeOutput(lines.filter(Boolean), text, utf8Length(text), 0).replace(
      /^output \(stdout and stderr merged, /m,
      'new output since the last read (stdout and stderr merged, ',
    );
    return job.exit?.ended === 'failed'
      ? { output: body, error: true, code: 'E_SHELL_START_FAILED' }
      : { output: body };
  }

  const sandboxSentence = sandboxed
    ? `Commands run inside a sandbox (${runner.sandbox.text}): the rest of the system is read-only, secrets such as ~/.ssh are hidden, and there is no network unless you set network: true, which the person must allow.`
    : 'The sandbox is OFF in this run (--sandbox off): commands can change any file the person can and use the network.';

  const shell: ToolDefinition = {
    schema: {
      name: SHELL_TOOL,
      description:
        'Run a shell command (bash -c) in the workspace and return its exit code, duration and output (stdout and stderr merged). ' +
        `${sandboxSentence} Standard input is empty: nothing interactive. A command is stopped with every process it started after timeout_s seconds (default ${SHELL_DEFAULT_TIMEOUT_S}, at most ${SHELL_MAX_TIMEOUT_S}); ` +
        'anything it leaves running is stopped when it ends. For a server or watcher set background: true, then read it with shell_output and end it with shell_stop. ' +
        'Long output is cut in the result and can be read with read_result.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command line, as you would type it into bash.' },
          timeout_s: {
            type: 'number',
            exclusiveMinimum: 0,
            maximum: SHELL_MAX_TIMEOUT_S,
            description: `Seconds before it is stopped (default ${SHELL_DEFAULT_TIMEOUT_S}; background: no limit unless given).`,
          },
          background: {
            type: 'boolean',
            description: 'Start it and return an id at once (servers, watchers). Default false.',
          },
          cwd: {
            type: 'string',
            description: 'A folder inside the workspace to run in (relative to the workspace root). Default: the root.',
          },
          network: {
            type: 'boolean',
            description:
              'Allow network access inside the sandbox (e.g. to install packages). The person must allow it. Default false.',
          },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: false,
    async prepare(args, ctx) {
      return card(await prepareShell(args, ctx), ctx);
    },
    async execute(args, ctx, prepared) {
      return guard(async () => {
        const state = await stateOf(args, ctx, prepared);
        if (ctx.signal.aborted)
          return {
            output: 'Error E_ABORTED: the turn was stopped before the command started; it did not run.',
            error: true,
            code: 'E_ABORTED',
          };
        return state.args.background ? startBackground(state, ctx) : runForeground(state, ctx);
      });
    },
  };

  const idSchema = {
    type: 'string',
    description: 'The id shell returned for a background command (bg-1, ...).',
  };

  const shellOutput: ToolDefinition = {
    schema: {
      name: SHELL_OUTPUT_TOOL,
      description:
        'Read the output a background command printed since the last read, and whether it still runs (or how it ended). ' +
        `wait_s (at most ${SHELL_OUTPUT_MAX_WAIT_S}) waits for new output or its end first.`,
      parameters: {
        type: 'object',
        properties: {
          id: idSchema,
          wait_s: {
            type: 'number',
            minimum: 0,
            maximum: SHELL_OUTPUT_MAX_WAIT_S,
            description: 'Seconds to wait for new output or the end when there is none yet. Default 0.',
          },
        },
        required: ['id'],
        additionalProperties: false,
      },
    },
    // Reading what an allowed command printed changes nothing: like read_result, it runs unasked.
    approval: 'free',
    external: false,
    async execute(args, ctx) {
      return guard(async () => {
        const job = jobFor(SHELL_OUTPUT_TOOL, args);
        const wait = args.wait_s;
        if (wait !== undefined && (typeof wait !== 'number' || !(wait >= 0) || wait > SHELL_OUTPUT_MAX_WAIT_S))
          throw argError(
            SHELL_OUTPUT_TOOL,
            `At arguments.wait_s: expected seconds from 0 to ${SHELL_OUTPUT_MAX_WAIT_S}.`,
          );
        await waitFor(job, (wait ?? 0) * 1000, ctx.signal);
        if (job.exit) await job.settled;
        return report(job);
      });
    },
  };

  const shellStop: ToolDefinition = {
    schema: {
      name: SHELL_STOP_TOOL,
      description: 'Stop a background command and every process it started; returns its last output and how it ended.',
      parameters: { type: 'object', properties: { id: idSchema }, required: ['id'], additionalProperties: false },
    },
    // It only ends a process this run started (and that ends with the run anyway): it runs unasked.
    approval: 'free',
    external: false,
    async execute(args) {
      return guard(async () => {
        const job = jobFor(SHELL_STOP_TOOL, args);
        if (!job.exit) job.proc.stop('stopped');
        await job.settled;
        return report(job);
      });
    },
  };

  return {
    tools: [shell, shellOutput, shellStop],
    async stopAll() {
      const running = [...jobs.values()].filter((j) => !j.exit);
      for (const job of running) job.proc.stop('stopped');
      await Promise.all(running.map((j) => j.settled));
    },
  };
}
