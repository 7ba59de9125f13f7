// The port between the shell tools (browser-safe: arguments, approval card, output, results) and what runs a command
// (node.ts in headless i; later the bridge for the app). The tools never touch a process themselves.

/** The sandbox commands run in, as the approval card and the tool description say it. */
export interface SandboxInfo {
  /** `bwrap` (Linux bubblewrap), `seatbelt` (macOS sandbox-exec), `off` (`--sandbox off`: no sandbox at all). */
  kind: 'bwrap' | 'seatbelt' | 'off';
  /** One line for the card, e.g. "on (bubblewrap: the workspace and a private /tmp writable, .git hooks/config read-only)". */
  text: string;
}

export interface ShellSpec {
  command: string;
  /** The real folder it starts in, inside the workspace (ShellRunner.resolveCwd). */
  cwd: string;
  /** Network inside the sandbox (only when the call asked and was allowed); without a sandbox it is never cut. */
  network: boolean;
  /** Stop after this long (SIGTERM to the group, SIGKILL after the grace); null: no limit (background). */
  timeoutMs: number | null;
}

export interface ShellExit {
  /** How it ended: its own exit, our timeout, shell_stop / the run's end, the turn's abort, or it never started. */
  ended: 'exit' | 'timeout' | 'stopped' | 'aborted' | 'failed';
  exitCode: number | null;
  /** The signal that ended it (`SIGKILL`), when one did. */
  signal: string | null;
  durationMs: number;
  /** `failed`: why it could not start. */
  error?: string;
  /** Notes of the runner for the result, e.g. hooks it disabled in a git repository the command created. */
  notes?: string[];
}

export interface ShellProcess {
  /** Ends it and every process it started: SIGTERM to the whole group (or sandbox), SIGKILL after the grace. */
  stop(reason: 'timeout' | 'stopped' | 'aborted'): void;
  /** Settles once it ended and its output was delivered; never rejects. */
  readonly done: Promise<ShellExit>;
}

export interface ShellRunner {
  readonly sandbox: SandboxInfo;
  /**
   * Throws E_SANDBOX_UNAVAILABLE (with the package to install or the switch to turn it off) when the sandbox is on
   * and cannot run here. Probed once and remembered.
   */
  check(): Promise<void>;
  /** The real folder a `cwd` argument names inside the workspace, and how to show it; throws E_SHELL_CWD_*. */
  resolveCwd(cwd: string | undefined): Promise<{ path: string; shown: string }>;
  /** Starts the command; `onOutput` gets stdout and stderr decoded as UTF-8, merged in arrival order. */
  start(spec: ShellSpec, onOutput: (text: string) => void): ShellProcess;
}

/** Live output of a running command, for `i --json` (bounded: live-output.ts). */
export interface ShellOutputEvent {
  /** The tool call that started the command. */
  callId: string;
  /** Set for a background process: its id (`bg-1`). */
  background?: string;
  text: string;
  /** Set on the one event that says live output stopped here (the result still holds it all). */
  cut?: true;
}
