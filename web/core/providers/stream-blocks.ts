// Block bookkeeping for stream decoders: every text, thinking and tool-call block gets one index for its whole
// life, emits exactly one start and one end (STYLE.md §4), and blocks still open at the end of a stream are closed.
import type { StreamEvent } from '../contracts';

type Kind = 'text' | 'thinking' | 'tool';

export class StreamBlocks {
  private nextIndex = 0;
  private readonly open = new Map<string, { index: number; kind: Kind }>();

  has(key: string): boolean {
    return this.open.has(key);
  }

  /** Opens a text or thinking block under `key` if needed and returns its index. */
  ensure(key: string, kind: 'text' | 'thinking', out: StreamEvent[]): number {
    const b = this.open.get(key);
    if (b) return b.index;
    const index = this.nextIndex++;
    this.open.set(key, { index, kind });
    out.push(kind === 'text' ? { type: 'text-start', index } : { type: 'thinking-start', index });
    return index;
  }

  openTool(key: string, id: string, name: string, out: StreamEvent[]): number {
    const b = this.open.get(key);
    if (b) return b.index;
    const index = this.nextIndex++;
    this.open.set(key, { index, kind: 'tool' });
    out.push({ type: 'tool-call-start', index, id, name });
    return index;
  }

  indexOf(key: string): number | undefined {
    return this.open.get(key)?.index;
  }

  end(key: string, out: StreamEvent[]): void {
    const b = this.open.get(key);
    if (!b) return;
    this.open.delete(key);
    out.push({
      type: b.kind === 'text' ? 'text-end' : b.kind === 'thinking' ? 'thinking-end' : 'tool-call-end',
      index: b.index,
    });
  }

  endAll(out: StreamEvent[]): void {
    for (const key of [...this.open.keys()]) this.end(key, out);
  }
}
