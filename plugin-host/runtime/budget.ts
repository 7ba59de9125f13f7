// A pausable deadline: the invocation budget runs during compile, instantiate and execution, and stops while the
// person is deciding on a write approval (seed 004). Pauses nest (concurrent waits are counted).

export class Budget {
  private remaining: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pauses = 0;
  private stopped = false;

  constructor(
    private readonly ms: number,
    private readonly onExpire: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.remaining = ms;
  }

  start(): void {
    this.arm();
  }

  /** Stops the clock until the returned function is called (once). */
  pause(): () => void {
    if (this.stopped) return () => {};
    if (this.pauses++ === 0) this.disarm();
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.pauses === 0 && !this.stopped) this.arm();
    };
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  get limitMs(): number {
    return this.ms;
  }

  private arm(): void {
    if (this.stopped) return;
    this.startedAt = this.now();
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        if (!this.stopped) this.onExpire();
      },
      Math.max(0, this.remaining),
    );
  }

  private disarm(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining -= this.now() - this.startedAt;
  }
}
