// The live turn reducer: a compaction summary that streams mid-turn is shown as "Compacting…", never left in front
// of the answer that follows; a /compact turn keeps its note to the end.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/page';
import { emptyLive, liveAfter, type LiveTurn } from './live-turn';

const delta = (text: string): AgentEvent => ({
  type: 'model',
  step: 1,
  event: { type: 'text-delta', index: 0, delta: text },
});
const compaction = {
  id: 'c',
  folded_messages: 4,
  folded_tool_results: 1,
  tokens_before: 900,
  tokens_after: 300,
  manual: false,
  at: 0,
};
const fold = (events: AgentEvent[], from: LiveTurn) => events.reduce(liveAfter, from);

describe('the live turn around a compaction', () => {
  it('marks an automatic compaction while its summary streams, then clears both before the answer', () => {
    const during = fold([{ type: 'compacting', step: 1, manual: false }, delta('Goal: …')], emptyLive('hi'));
    expect(during.compacting).toEqual({ auto: true });
    const after = fold(
      [{ type: 'compacted', step: 1, removed: 4, compaction, summary: 'Goal: …' }, delta('The answer')],
      during,
    );
    expect(after.compacting).toBeUndefined();
    expect(after.text).toBe('The answer');
  });

  it('clears the summary text of a failed automatic compaction too', () => {
    const failed = fold(
      [
        { type: 'compacting', step: 1, manual: false },
        delta('half a summ'),
        { type: 'compaction-failed', step: 1, error: { code: 'E_PROVIDER_HTTP', message: '500' } },
      ],
      emptyLive('hi'),
    );
    expect(failed.text).toBe('');
    expect(failed.compacting).toBeUndefined();
  });

  it('keeps the note of a /compact turn after its summary is committed', () => {
    const manual: LiveTurn = { ...emptyLive(''), saved: true, compacting: { focus: 'the file list' } };
    const after = fold(
      [
        { type: 'compacting', step: 1, manual: true },
        delta('Goal'),
        { type: 'compacted', step: 1, removed: 4, compaction: { ...compaction, manual: true }, summary: 'Goal' },
      ],
      manual,
    );
    expect(after.compacting).toEqual({ focus: 'the file list' });
    expect(after.text).toBe('');
  });

  it('returns the same object for events that change nothing shown', () => {
    const l = emptyLive('hi');
    expect(liveAfter(l, { type: 'checkpoint', step: 1, messages: 3, path: 's' })).toBe(l);
  });
});

describe('the live turn while a model call is retried', () => {
  const retry = (attempt: number, status?: number): AgentEvent => ({
    type: 'model',
    step: 1,
    event: {
      type: 'retry',
      attempt,
      maxAttempts: 5,
      delayMs: 8000,
      retryAt: 1_008_000,
      reason: 'E_RATE_LIMITED: slow down',
      code: status === 429 ? 'E_RATE_LIMITED' : 'E_NETWORK',
      ...(status !== undefined ? { status } : {}),
    },
  });

  it('holds when the retry is sent and why, for the countdown, and drops it once the answer streams', () => {
    const waiting = fold([retry(2, 429)], emptyLive('hi'));
    expect(waiting.retrying).toEqual({
      attempt: 2,
      maxAttempts: 5,
      retryAt: 1_008_000,
      code: 'E_RATE_LIMITED',
      status: 429,
    });
    expect(fold([retry(3)], waiting).retrying).toEqual({
      attempt: 3,
      maxAttempts: 5,
      retryAt: 1_008_000,
      code: 'E_NETWORK',
    });
    const answering = fold([delta('Hello')], waiting);
    expect(answering.retrying).toBeUndefined();
    expect(answering.text).toBe('Hello');
  });
});
