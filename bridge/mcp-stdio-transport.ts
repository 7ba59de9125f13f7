// The stdio transport for hosted MCP servers. The SDK's StdioClientTransport spawns the server in the bridge's
// own process group and adds HOME, LOGNAME, SHELL, TERM and USER to its environment; this one spawns it like an
// NDJSON worker instead: detached into its own process group (killed as a whole: SIGTERM, SIGKILL after the
// grace period; `taskkill /T /F` on Windows) with exactly the scrubbed worker environment of seed 000 §2.
// Framing is the SDK's (newline-delimited JSON-RPC, messages checked by its JSONRPCMessageSchema), but lines are
// cut by the bridge's own FrameReader: the SDK's ReadBuffer concatenates its whole buffer on every chunk, quadratic
// in the message size (a 48 MiB message took ~15 s of copying before it was accepted or refused). The reader keeps
// the chunks and joins them once, and refuses a line the moment it passes the cap.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BridgeError } from './errors';
import { FrameReader } from './frame-reader';
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

/**
 * Newline-delimited JSON-RPC messages from a byte stream, in time linear in the bytes. A line over `maxFrameBytes`
 * (newline included) or one that is not a JSON-RPC message stops the decoder with a coded error.
 */
export class McpFrameDecoder {
  private readonly reader: FrameReader;
  private failed = false;

  constructor(
    maxFrameBytes: number,
    private readonly onMessage: (message: JSONRPCMessage) => void,
    private readonly onError: (error: BridgeError) => void,
  ) {
    this.reader = new FrameReader(maxFrameBytes, {
      line: (line) => this.onLine(line),
      overflow: (bytes) =>
        this.fail(
          new BridgeError(
            'E_MCP_FRAME_TOO_LARGE',
            `The MCP server sent a message of more than ${maxFrameBytes} bytes (at least ${bytes}). Messages are limited to 48 MiB; have the tool return less data.`,
            { bytes, limit: maxFrameBytes },
          ),
        ),
    });
  }

  push(chunk: Buffer): void {
    if (!this.failed) this.reader.push(chunk);
  }

  clear(): void {
    this.reader.stop();
  }

  private onLine(line: Buffer): void {
    if (this.failed) return;
    // The SDK accepts CRLF line ends; so does this.
    const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line.toString('utf8', 0, end)));
    } catch {
      return this.fail(
        new BridgeError(
          'E_MCP_PROTOCOL',
          `The MCP server wrote a line on stdout that is not a JSON-RPC message (${line.length} bytes, starting ${JSON.stringify(line.toString('utf8', 0, Math.min(end, 80)))}). stdout is for protocol messages only.`,
        ),
      );
    }
    this.onMessage(message);
  }

  private fail(error: BridgeError): void {
    this.failed = true;
    this.reader.stop();
    this.onError(error);
  }
}

/** Stderr kept for diagnostics (the rest is read and dropped, so a chatty server never blocks on a full pipe). */
const STDERR_TAIL_CHARS = 2000;
const STDERR_SHOWN_CHARS = 600;

export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly decoder: McpFrameDecoder;
  /** Why the transport stopped the server itself (an oversized or malformed message), for the failed call. */
  failure: BridgeError | undefined;
  private killed = false;
  private closedOnce = false;
  /** The last stderr bytes and how the server ended on its own, for a start failure's message. */
  private stderrTail = '';
  private ownExit: string | undefined;

  constructor(private readonly o: McpStdioOptions) {
    this.decoder = new McpFrameDecoder(
      o.maxBufferSize,
      (message) => this.onmessage?.(message),
      (error) => {
        this.failure = error;
        this.onerror?.(error);
        this.kill();
      },
    );
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
      child.stdout.on('data', (chunk: Buffer) => this.decoder.push(chunk));
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
    this.decoder.clear();
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
