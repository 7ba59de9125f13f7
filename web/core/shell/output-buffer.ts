// Bounded output of a command (issue 31). A command can print without end; memory holds at most its first
// HEAD and last TAIL bytes (the middle is counted and dropped, and the text says so), cut on UTF-8 character
// boundaries. A background process keeps only its unread output, bounded the same way from the end.
import { isCharBoundary, utf8Length, utf8Prefix } from '../context';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The last at most `maxBytes` bytes of `text`, starting on a character boundary. */
export function utf8Suffix(text: string, maxBytes: number): { text: string; bytes: number } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length };
  let cut = bytes.length - maxBytes;
  while (cut < bytes.length && !isCharBoundary(bytes, cut)) cut++;
  return { text: decoder.decode(bytes.subarray(cut)), bytes: bytes.length - cut };
}

/** Text pieces from the end, at most `max` bytes: older ones are dropped (and counted) as newer ones arrive. */
class Tail {
  private pieces: Array<{ text: string; bytes: number }> = [];
  bytes = 0;
  dropped = 0;
  constructor(private readonly max: number) {}
  push(text: string, bytes: number): void {
    if (bytes === 0) return;
    this.pieces.push({ text, bytes });
    this.bytes += bytes;
    while (this.bytes > this.max) {
      const first = this.pieces[0]!;
      const excess = this.bytes - this.max;
      if (first.bytes <= excess) {
        this.pieces.shift();
        this.bytes -= first.bytes;
        this.dropped += first.bytes;
      } else {
        const kept = utf8Suffix(first.text, first.bytes - excess);
        this.pieces[0] = kept;
        this.bytes -= first.bytes - kept.bytes;
        this.dropped += first.bytes - kept.bytes;
      }
    }
  }
  text(): string {
    return this.pieces.map((p) => p.text).join('');
  }
  clear(): void {
    this.pieces = [];
    this.bytes = 0;
    this.dropped = 0;
  }
}

/** A command's whole output as held: the head, then the tail, with the dropped middle counted. */
export class HeldOutput {
  private readonly head: string[] = [];
  private headBytes = 0;
  private headFull = false;
  private readonly tail: Tail;
  /** Every byte the command printed, held or not. */
  total = 0;

  constructor(
    private readonly headMax: number,
    tailMax: number,
  ) {
    this.tail = new Tail(tailMax);
  }

  push(text: string): void {
    let bytes = utf8Length(text);
    this.total += bytes;
    if (!this.headFull) {
      const room = this.headMax - this.headBytes;
      if (bytes <= room) {
        this.head.push(text);
        this.headBytes += bytes;
        return;
      }
      const part = utf8Prefix(text, room);
      this.head.push(part.text);
      this.headBytes += part.bytes;
      this.headFull = true;
      text = text.slice(part.text.length);
      bytes -= part.bytes;
    }
    this.tail.push(text, bytes);
  }

  /** Bytes printed but not held (the middle of a very long output). */
  get dropped(): number {
    return this.tail.dropped;
  }

  text(): string {
    const gap = this.tail.dropped
      ? `\n[... ${this.tail.dropped} bytes of output not kept: i holds the first ${this.headMax} and the last ${this.tail.bytes} bytes of a command's output ...]\n`
      : '';
    return `${this.head.join('')}${gap}${this.tail.text()}`;
  }
}

/** A background process's output not yet read by shell_output: at most `max` bytes, the newest. */
export class UnreadOutput {
  private readonly tail: Tail;
  total = 0;
  constructor(max: number) {
    this.tail = new Tail(max);
  }
  push(text: string): void {
    const bytes = utf8Length(text);
    this.total += bytes;
    this.tail.push(text, bytes);
  }
  get pending(): boolean {
    return this.tail.bytes > 0 || this.tail.dropped > 0;
  }
  /** The unread text and how many unread bytes were dropped before it; both reset. */
  take(): { text: string; dropped: number } {
    const out = { text: this.tail.text(), dropped: this.tail.dropped };
    this.tail.clear();
    return out;
  }
}

/**
 * Live output of one command in bounded events: pieces are gathered for `intervalMs` or until `eventBytes`, each
 * event holds at most `eventBytes`, and after `maxBytes` in all one last event says the rest is in the result only.
 */
export class LiveOutput {
  private pending = '';
  private pendingBytes = 0;
  private sent = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private cut = false;

  constructor(
    private readonly emit: (text: string, cut?: true) => void,
    private readonly limits: { eventBytes: number; intervalMs: number; maxBytes: number },
  ) {}

  push(text: string): void {
    if (this.cut || text === '') return;
    this.pending += text;
    this.pendingBytes += utf8Length(text);
    if (this.pendingBytes >= this.limits.eventBytes) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.limits.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.pendingBytes > 0 && !this.cut) {
      const piece = utf8Prefix(this.pending, Math.max(4, this.limits.eventBytes));
      if (this.sent + piece.bytes > this.limits.maxBytes) {
        this.cut = true;
        this.emit(
          `\n[live output stops here after ${this.sent} bytes; the tool result holds the whole output]\n`,
          true,
        );
        break;
      }
      this.emit(piece.text);
      this.sent += piece.bytes;
      this.pending = this.pending.slice(piece.text.length);
      this.pendingBytes -= piece.bytes;
    }
    if (this.cut) {
      this.pending = '';
      this.pendingBytes = 0;
    }
  }

  end(): void {
    this.flush();
  }
}
