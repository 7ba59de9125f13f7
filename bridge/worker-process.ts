// One resident NDJSON worker (seed 000 §2): one call in flight, each with a deadline; any protocol violation
// fails that call and evicts the worker (its process group is killed). Nothing is retried: a failed call may
// already have had side effects, so the caller decides what to do next.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { quoteUntrusted } from '../net';
import { BridgeError } from './errors';
import { FrameReader } from './frame-reader';
import { killGroup, killGroupNow } from './kill-group';
import { MAX_JSON_DEPTH } from './limits';
import { collectGarbage, noteGarbage } from './reclaim';
import type { WorkerRequest } from './protocol';

export interface WorkerOptions {
  maxFrameBytes: number;
  ioLimitBytes: number;
  killGraceMs: number;
}

interface Pending {
  id: number;
  resolve: (data: Record<string, unknown>) => void;
  reject: (error: BridgeError) => void;
  timer: NodeJS.Timeout;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class WorkerProcess {
  readonly pid: number | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly reader: FrameReader;
  private pending: Pending | undefined;
  private nextId = 0;
  private stderrParts: Buffer[] = [];
  private stderrSize = 0;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private eofTimer: NodeJS.Timeout | undefined;
  private evicted = false;
  /** Called once when the worker can no longer take calls (evicted or exited). */
  onGone: (() => void) | undefined;
  /** Called once its process group has been sent SIGKILL (after eviction's grace period). */
  onKilled: (() => void) | undefined;

  constructor(
    readonly argv: string[],
    readonly cwd: string,
    env: Record<string, string>,
    private readonly options: WorkerOptions,
  ) {
    this.child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.pid = this.child.pid;
    this.reader = new FrameReader(options.maxFrameBytes, {
      line: (line) => this.onLine(line),
      overflow: (bytes) =>
        this.violation(
          'E_WORKER_FRAME_TOO_LARGE',
          `The worker sent a frame of more than ${this.options.maxFrameBytes} bytes (at least ${bytes}). Frames are limited to 48 MiB; return less data or a reference.`,
        ),
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.reader.push(chunk));
    this.child.stdout.on('end', () => {
      // The exit event usually follows within milliseconds and carries the signal; wait briefly for it.
      this.eofTimer = setTimeout(() => this.onEnd(), 200);
    });
    this.child.stderr.on('data', (chunk: Buffer) => this.keepStderr(chunk));
    this.child.stdin.on('error', () => {
      // EPIPE when the worker died; the exit handler reports it.
    });
    this.child.on('error', (error) => {
      this.fail(
        new BridgeError(
          'E_WORKER_SPAWN',
          `Could not start the worker ${argv[0]} (${error.message}). Check the manifest's exec and cwd.`,
          { argv0: argv[0] },
        ),
      );
      this.evict();
    });
    this.child.on('exit', (code, signal) => {
      this.exitInfo = { code, signal };
      this.onEnd();
    });
  }

  get alive(): boolean {
    return !this.evicted && this.exitInfo === undefined;
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** The last `io_limit_bytes` of stderr, for diagnostics. */
  stderrTail(): string {
    return Buffer.concat(this.stderrParts).toString('utf8');
  }

  call(request: Omit<WorkerRequest, 'id'>, timeoutMs: number): Promise<Record<string, unknown>> {
    if (!this.alive)
      return Promise.reject(
        new BridgeError('E_WORKER_GONE', 'The worker has already stopped. Call again to start a fresh one.'),
      );
    if (this.pending)
      return Promise.reject(
        new BridgeError('E_WORKER_BUSY', 'The worker already has a call in flight; calls must be queued.'),
      );
    const id = ++this.nextId;
    let frame: Buffer;
    try {
      frame = encodeFrame({ id, ...request }, this.options.maxFrameBytes);
    } catch (error) {
      // The request is at fault, not the worker: it never saw a byte of it, so it stays up for the next call.
      return Promise.reject(error);
    }
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.violation(
          'E_WORKER_TIMEOUT',
          `The worker did not answer within ${timeoutMs} ms. It was stopped; the call may have had side effects and is not retried.`,
        );
      }, timeoutMs);
      this.pending = { id, resolve, reject, timer };
    });
    // Written outside the closures above, which live as long as the call: only the pipe holds the frame, until drained.
    this.child.stdin.write(frame);
    noteGarbage(frame.byteLength); // the serialised text, dead now that encodeFrame has returned
    collectGarbage();
    return answer;
  }

  /** Stops the worker and its whole process group, failing a call in flight with `reason`. Safe to call more than once. */
  evict(reason?: BridgeError): void {
    if (this.evicted) return;
    if (reason) this.fail(reason);
    this.evicted = true;
    this.reader.stop();
    this.child.stdout.destroy();
    this.child.stdin.destroy();
    // Even when the leader has exited, a grandchild may still hold the group: always signal it.
    if (this.pid !== undefined) killGroup(this.pid, this.options.killGraceMs, () => this.onKilled?.());
    this.onGone?.();
  }

  /** Synchronous kill for process exit. */
  killNow(): void {
    this.evicted = true;
    if (this.pid !== undefined) killGroupNow(this.pid);
  }

  private keepStderr(chunk: Buffer): void {
    const limit = this.options.ioLimitBytes;
    if (limit <= 0) return;
    const piece = chunk.byteLength > limit ? chunk.subarray(chunk.byteLength - limit) : chunk;
    this.stderrParts.push(piece);
    this.stderrSize += piece.byteLength;
    while (this.stderrSize > limit) {
      const first = this.stderrParts[0]!;
      const excess = this.stderrSize - limit;
      if (first.byteLength <= excess) {
        this.stderrParts.shift();
        this.stderrSize -= first.byteLength;
      } else {
        this.stderrParts[0] = first.subarray(excess);
        this.stderrSize -= excess;
      }
    }
  }

  private onLine(line: Buffer): void {
    const pending = this.pending;
    let frame: unknown;
    // A safe point: the reader has dropped the pipe chunks this line was joined from, and the request frame has
    // drained (the worker answered), so both go before the text and the parsed answer are built.
    noteGarbage(line.byteLength);
    collectGarbage();
    try {
      frame = JSON.parse(line.toString('utf8'));
      noteGarbage(line.byteLength); // the joined line and its text, once this event is over
    } catch {
      this.violation(
        'E_WORKER_PROTOCOL',
        `The worker wrote a line on stdout that is not a JSON frame (${preview(line)}). stdout is for protocol frames only: log to stderr.`,
      );
      return;
    }
    if (!pending) {
      this.violation(
        'E_WORKER_PROTOCOL',
        'The worker wrote a frame while no call was in flight. Workers answer each request exactly once.',
      );
      return;
    }
    if (!isObject(frame) || frame.id !== pending.id) {
      this.violation(
        'E_WORKER_PROTOCOL',
        `The worker answered with id ${isObject(frame) ? shownId(frame.id) : '(none)'} instead of ${pending.id}. Echo the request id.`,
      );
      return;
    }
    if (typeof frame.error === 'string' && frame.data === undefined) {
      this.violation('E_WORKER_ERROR', `The worker reported an error: ${quoteUntrusted(frame.error, 2000)}`);
      return;
    }
    if (!isObject(frame.data) || frame.error !== undefined) {
      this.violation(
        'E_WORKER_PROTOCOL',
        'The worker answered without an object "data" (or with both data and error). Success frames carry {"id", "data": {...}}.',
      );
      return;
    }
    clearTimeout(pending.timer);
    this.pending = undefined;
    pending.resolve(frame.data);
  }

  private onEnd(): void {
    if (this.eofTimer) clearTimeout(this.eofTimer);
    this.eofTimer = undefined;
    if (this.pending) {
      const exit = this.exitInfo;
      const how = exit?.signal
        ? `was killed by ${exit.signal}`
        : exit
          ? `exited with code ${exit.code}`
          : 'closed its stdout';
      const partial = this.reader.pendingBytes > 0;
      this.fail(
        new BridgeError(
          partial ? 'E_WORKER_PROTOCOL' : 'E_WORKER_CRASHED',
          partial
            ? `The worker ${how} with an unfinished frame (no newline). Every frame must end with a newline and be flushed. The call is not retried.`
            : `The worker ${how} during the call. The call is not retried; it may have had side effects.`,
          { signal: exit?.signal ?? null, exit_code: exit?.code ?? null, stderr: tail(this.stderrTail()) },
        ),
      );
    }
    this.evict();
  }

  private violation(code: string, message: string): void {
    this.fail(new BridgeError(code, message, { stderr: tail(this.stderrTail()) }));
    this.evict();
  }

  private fail(error: BridgeError): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending = undefined;
    pending.reject(error);
  }
}

/**
 * One request line as bytes, checked before anything reaches the worker. The string goes straight into one exactly
 * sized buffer with the newline (no `line + "\n"` copy, no second encoding inside the stream), so a request costs
 * its serialised text plus one buffer of the same size, and the text is garbage as soon as this returns.
 */
export function encodeFrame(frame: WorkerRequest, maxFrameBytes: number): Buffer {
  let text: string;
  try {
    text = JSON.stringify(frame);
  } catch (error) {
    // A cycle, a BigInt, or nesting deeper than V8's stack (RangeError): only a request built inside the bridge
    // (a hook chain passing on a worker's answer) can get here, HTTP bodies are depth-checked when read.
    throw new BridgeError(
      'E_REQUEST_UNSERIALISABLE',
      `The request could not be serialised for the worker (${clip((error as Error).message)}). Send plain JSON nested at most ${MAX_JSON_DEPTH} levels deep.`,
    );
  }
  const bytes = Buffer.byteLength(text, 'utf8') + 1;
  if (bytes > maxFrameBytes) {
    throw new BridgeError(
      'E_REQUEST_FRAME_TOO_LARGE',
      `The request frame would be ${bytes} bytes, over the ${maxFrameBytes}-byte limit of a worker frame. Send smaller arguments or a reference to the data.`,
      { bytes, limit: maxFrameBytes },
    );
  }
  const out = Buffer.allocUnsafe(bytes);
  out.write(text, 0, 'utf8');
  out[bytes - 1] = 0x0a;
  return out;
}

/** A worker's id shown in an error: bounded whatever the worker sent (a 48 MiB string id, a deep array). */
const shownId = (id: unknown): string =>
  typeof id === 'string'
    ? JSON.stringify(clip(id))
    : typeof id === 'number'
      ? String(id)
      : `(a ${Array.isArray(id) ? 'list' : id === null ? 'null' : typeof id})`;
const clip = (text: string): string =>
  text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
const preview = (line: Buffer): string => JSON.stringify(line.subarray(0, 80).toString('utf8'));
const tail = (text: string): string => (text.length > 2000 ? text.slice(-2000) : text);
