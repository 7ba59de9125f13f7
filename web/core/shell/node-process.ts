// One command as a process group (Node only). It is spawned detached, so it leads a group of its own; stopping it
// signals the whole group (`kill(-pid)`): SIGTERM, then SIGKILL after the grace. Inside bubblewrap the command also
// has a pid namespace of its own, which the kernel empties when bwrap goes, so nothing it started survives even a
// `setsid`. After the command's own process exits, output still arriving through the pipes (held open by something
// it left running) is awaited for a moment, then the rest of the group is killed: a foreground command ends with
// everything it started (servers: `background: true`). Every live group is killed when the i process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ShellExit, ShellProcess } from './types';

/** How one command is started, found just before it starts (the sandbox's paths are looked up then). */
export interface Launch {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** After it ended (and before `done` settles): clean-up, and notes for the result. */
  after?: () => Promise<string[]>;
}

export interface ProcessOptions {
  plan: () => Promise<Launch>;
  timeoutMs: number | null;
  graceMs: number;
  drainMs: number;
  onOutput: (text: string) => void;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}

function track(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // `exit` handlers run synchronously as Node ends (normal end, process.exit, a second Ctrl-C): a command that runs
  // without a sandbox has no --die-with-parent, so its group is killed here.
  process.on('exit', () => {
    for (const group of liveGroups) killGroup(group, 'SIGKILL');
  });
}

export function startProcess(o: ProcessOptions): ShellProcess {
  const startedAt = Date.now();
  let child: ChildProcess | null = null;
  let reason: 'timeout' | 'stopped' | 'aborted' | null = null;
  let finished = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let timeoutTimer: ReturnType<typeof setTimeout> | undefined;

  const stop = (why: 'timeout' | 'stopped' | 'aborted') => {
    if (finished || reason) return;
    reason = why;
    const pid = child?.pid;
    if (pid === undefined) return; // not spawned yet: run() sees the reason and does not spawn
    killGroup(pid, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), o.graceMs);
  };

  const run = async (): Promise<ShellExit> => {
    let launch: Launch;
    try {
      launch = await o.plan();
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    if (reason) return { ended: reason, exitCode: null, signal: null, durationMs: Date.now() - startedAt };
    const exit = await new Promise<ShellExit>((resolve) => {
      let spawned: ChildProcess;
      try {
        spawned = spawn(launch.argv[0]!, launch.argv.slice(1), {
          cwd: launch.cwd,
          env: launch.env,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
          windowsHide: true,
        });
      } catch (error) {
        resolve(failed(error instanceof Error ? error.message : String(error)));
        return;
      }
      child = spawned;
      const pid = spawned.pid;
      if (pid !== undefined) track(pid);
      const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')];
      const deliver = (text: string) => {
        if (!finished && text) o.onOutput(text);
      };
      spawned.stdout!.on('data', (b: Buffer) => deliver(decoders[0]!.write(b)));
      spawned.stderr!.on('data', (b: Buffer) => deliver(decoders[1]!.write(b)));
      if (o.timeoutMs !== null) timeoutTimer = setTimeout(() => stop('timeout'), o.timeoutMs);
      let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
      let drainTimer: ReturnType<typeof setTimeout> | undefined;
      const finish = (error?: string) => {
        if (finished) return;
        for (const d of decoders) deliver(d.end());
        finished = true;
        clearTimeout(drainTimer);
        clearTimeout(timeoutTimer);
        clearTimeout(killTimer);
        if (pid !== undefined) {
          killGroup(pid, 'SIGKILL'); // whatever it left running
          liveGroups.delete(pid);
        }
        spawned.stdout!.destroy();
        spawned.stderr!.destroy();
        const durationMs = Date.now() - startedAt;
        if (error !== undefined && !exited) resolve(failed(error));
        else
          resolve({
            ended: reason ?? 'exit',
            exitCode: exited?.code ?? null,
            signal: exited?.signal ?? null,
            durationMs,
          });
      };
      spawned.on('error', (error) => finish(error.message)); // e.g. ENOENT: the program is not there
      spawned.on('exit', (code, signal) => {
        exited = { code, signal };
        drainTimer = setTimeout(() => finish(), o.drainMs);
      });
      spawned.on('close', () => finish());
    });
    const notes = launch.after ? await launch.after().catch((e: unknown) => [`clean-up failed: ${String(e)}`]) : [];
    return notes.length ? { ...exit, notes } : exit;
  };

  function failed(error: string): ShellExit {
    finished = true;
    return { ended: 'failed', exitCode: null, signal: null, durationMs: Date.now() - startedAt, error };
  }

  return { stop, done: run() };
}
