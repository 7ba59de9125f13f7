import { afterEach, describe, expect, it, vi } from 'vitest';
import { Budget } from './budget';

afterEach(() => vi.useRealTimers());

describe('Budget', () => {
  it('expires after the budget of running time, not counting paused time', () => {
    vi.useFakeTimers();
    let now = 0;
    let expired = 0;
    const b = new Budget(
      1000,
      () => expired++,
      () => now,
    );
    b.start();
    now = 400;
    vi.advanceTimersByTime(400);
    const resume = b.pause();
    now = 10_400;
    vi.advanceTimersByTime(10_000);
    expect(expired).toBe(0);
    resume();
    resume(); // resuming twice is harmless
    now = 10_999;
    vi.advanceTimersByTime(599);
    expect(expired).toBe(0);
    now = 11_000;
    vi.advanceTimersByTime(1);
    expect(expired).toBe(1);
  });

  it('stays paused until every nested pause is resumed, and never fires after stop', () => {
    vi.useFakeTimers();
    let expired = 0;
    const b = new Budget(100, () => expired++);
    b.start();
    const r1 = b.pause();
    const r2 = b.pause();
    r1();
    vi.advanceTimersByTime(1000);
    expect(expired).toBe(0);
    r2();
    b.stop();
    vi.advanceTimersByTime(1000);
    expect(expired).toBe(0);
  });
});
