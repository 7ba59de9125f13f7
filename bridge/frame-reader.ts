// A byte-counted NDJSON line splitter. It never holds more than `maxFrameBytes` of one line: the moment a line
// (newline included) would exceed the cap it reports an overflow and drops what it held, so a worker that
// streams gigabytes without a newline costs the bridge at most one frame of memory (seed 000 §2).

export interface FrameReaderEvents {
  line: (line: Buffer) => void;
  overflow: (bytes: number) => void;
}

export class FrameReader {
  private parts: Buffer[] = [];
  private size = 0;
  private stopped = false;

  constructor(
    private readonly maxFrameBytes: number,
    private readonly on: FrameReaderEvents,
  ) {}

  /** Bytes of an unfinished line (a frame still waiting for its newline). */
  get pendingBytes(): number {
    return this.size;
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    while (!this.stopped && rest.length > 0) {
      const nl = rest.indexOf(0x0a);
      const take = nl === -1 ? rest.length : nl + 1;
      if (this.size + take > this.maxFrameBytes || (nl === -1 && this.size + take >= this.maxFrameBytes)) {
        const bytes = this.size + take;
        this.stop();
        this.on.overflow(bytes);
        return;
      }
      if (nl === -1) {
        this.parts.push(rest);
        this.size += rest.length;
        return;
      }
      this.parts.push(rest.subarray(0, nl));
      const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      this.parts = [];
      this.size = 0;
      rest = rest.subarray(nl + 1);
      this.on.line(line);
    }
  }

  /** Drops buffered bytes and ignores everything pushed later. */
  stop(): void {
    this.stopped = true;
    this.parts = [];
    this.size = 0;
  }
}
