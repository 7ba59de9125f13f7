// The stdio transport for hosted MCP servers. The SDK's StdioClientTransport spawns the server in the bridge's
// own process group and adds HOME, LOGNAME, SHELL, TERM and USER to its environment; this one spawns it like an
// NDJSON worker instead: detached into its own process group (killed as a whole: SIGTERM, SIGKILL after the
// grace period; `taskkill /T /F` on Windows) with exactly the scrubbed worker environment of seed 000 §2.
// Framing is the SDK's own (newline-delimited JSON-RPC, ReadBuffer with the 48 MiB cap).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, killGroupNow } from './kill-group';
import type { GroupSink } from './worker-pool';

export interface McpStdioOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  maxBufferSize: number;
  killGraceMs: number;
  groups?: GroupSink | undefined;
}

/** Stderr kept for diagnostics (the rest is read and dropped, so a chatty server never blocks on a full pipe). */
const STDERR_TAIL_CHARS = 2000;
const STDERR_SHOWN_CHARS = 600;

export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly buffer: ReadBuffer;
  private killed = false;
  private closedOnce = false;
  /** The last stderr bytes and how the server ended on its own, for a start failure's message. */
  private stderrTail = '';
  private ownExit: string | undefined;

  constructor(private readonly o: McpStdioOptions) {
    this.buffer = new ReadBuffer({ maxBufferSize: o.maxBufferSize });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error('The MCP transport was already started.'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.o.argv[0]!, this.o.argv.slice(1), {
        cwd: this.o.cwd,
        env: this.o.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        shell: false,
      }) as unknown as ChildProcessWithoutNullStreams;
      this.child = child;
      const pgid = child.pid;
      if (pgid !== undefined && process.platform !== 'win32') this.o.groups?.add(pgid);
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.kill();
      });
      child.on('spawn', () => resolve());
      child.on('exit', (code, signal) => {
        if (!this.killed) this.ownExit = signal ? `killed by ${signal}` : `exited with code ${code}`;
      });
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      child.stderr.on('error', () => undefined);
      child.on('close', () => this.closed());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error as Error);
          this.kill();
        }
      });
    });
  }

  /** "exited with code 1; stderr: ..." when the server ended by itself or wrote to stderr; empty otherwise. */
  diagnostics(): string {
    // One line (a start error is printed as "error CODE: message"), ending where the cause usually is.
    const stderr = this.stderrTail.replace(/\s+/g, ' ').trim().slice(-STDERR_SHOWN_CHARS);
    return [this.ownExit, stderr ? `stderr: ${stderr}` : undefined].filter(Boolean).join('; ');
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.killed) return Promise.reject(new Error('The MCP server is not running.'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server with its whole process group; resolves once the process has gone (or the grace ran out). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('close', () => resolve());
      setTimeout(resolve, this.o.killGraceMs + 500).unref();
    });
    this.kill();
    await gone;
    this.closed();
  }

  /** Synchronous SIGKILL of the group, for process exit. */
  killNow(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    this.killed = true;
    killGroupNow(pid);
    if (process.platform !== 'win32') this.o.groups?.remove(pid);
  }

  private kill(): void {
    const child = this.child;
    if (!child || this.killed || child.pid === undefined) return;
    this.killed = true;
    const pid = child.pid;
    this.buffer.clear();
    child.stdin.destroy();
    // Even when the leader has exited, a grandchild may still hold the group: always signal it.
    killGroup(pid, this.o.killGraceMs, () => {
      if (process.platform !== 'win32') this.o.groups?.remove(pid);
    });
  }

  private closed(): void {
    // The leader exited on its own (crash, EOF): its group may hold grandchildren, so kill it too.
    this.kill();
    if (this.closedOnce) return;
    this.closedOnce = true;
    this.onclose?.();
  }
}
