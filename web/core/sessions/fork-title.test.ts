import { describe, expect, it } from 'vitest';
import { forkTitle } from './title';

describe('forkTitle', () => {
  it('numbers forks after the highest fork of the same title, ignoring other titles', () => {
    expect(forkTitle('Plan', [])).toBe('Plan (fork)');
    expect(forkTitle('Plan', ['Plan', 'Plan (fork)'])).toBe('Plan (fork 2)');
    expect(forkTitle('Plan', ['Plan (fork)', 'Plan (fork 7)', 'Other (fork 9)', 'Planning (fork 12)'])).toBe(
      'Plan (fork 8)',
    );
  });

  it('forks a fork as a sibling, not as "(fork) (fork)"', () => {
    expect(forkTitle('Plan (fork 2)', ['Plan', 'Plan (fork)', 'Plan (fork 2)'])).toBe('Plan (fork 3)');
  });
});
