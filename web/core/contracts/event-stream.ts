// A push-based async event stream with a final result (STYLE.md §6): producers `push` events and `end(result)`
// once; consumers `for await` the events and/or await `result()`. Buffers until consumed, so a slow consumer
// never loses events; one consumer per stream.

export class EventStream<T, R> implements AsyncIterable<T> {
  private queue: T[] = [];
  private waiting: ((v: IteratorResult<T>) => void) | null = null;
  private ended = false;
  private finalResult!: R;
  private resolveResult!: (r: R) => void;
  private readonly resultPromise: Promise<R>;

  constructor() {
    this.resultPromise = new Promise<R>((resolve) => {
      this.resolveResult = resolve;
    });
  }

  push(event: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  /** Ends the stream. Later pushes and ends are ignored. */
  end(result: R): void {
    if (this.ended) return;
    this.ended = true;
    this.finalResult = result;
    this.resolveResult(result);
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  result(): Promise<R> {
    return this.resultPromise;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const next = this.queue.shift();
        if (next !== undefined) return Promise.resolve({ value: next, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
    };
  }

  /** The final result, for callers that already know the stream ended. */
  get value(): R {
    return this.finalResult;
  }
}
