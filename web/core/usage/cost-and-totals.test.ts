// Cost comes only from the person's price table: cache reads, cache writes, plain input and output each at their
// own price, missing cache prices charged as input, no price → null ("—"), never a guess.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import type { AssistantMessage, Message } from '../contracts/messages';
import {
  addTotals,
  checkPriceTable,
  costOf,
  mergePrices,
  parsePriceTable,
  PRICE_PRESETS,
  priceFor,
  usageTotals,
  withPrice,
} from '.';
import type { PriceTable, StepUsage } from '../contracts/usage';

const step = (over: Partial<StepUsage> = {}): StepUsage => ({
  input_tokens: 1_000_000,
  output_tokens: 100_000,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reported: { input: true, output: true, cache: true },
  duration_ms: 1200,
  protocol: 'anthropic',
  model: 'claude-sonnet-4-0',
  ...over,
});
const answer = (usage: StepUsage | undefined, content = 'ok'): AssistantMessage => ({
  role: 'assistant',
  content,
  ...(usage ? { _usage: usage } : {}),
});

const TABLE: PriceTable = {
  as_of: '2026-12-02',
  prices: [
    { model: 'claude-sonnet-4-0', input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
    { model: 'deepseek-chat', input: 0.56, output: 1.68, cache_read: 0.07 },
    { model: 'local-model', input: 1, output: 2 },
  ],
};

describe('costOf', () => {
  it('charges Anthropic cache reads and cache writes at their own prices and only the rest of the input as input', () => {
    // input 1M = 200k plain + 500k read + 300k creation (seed 000 §8: creation is a write, not a hit).
    const u = step({ cache_read_tokens: 500_000, cache_write_tokens: 300_000 });
    expect(costOf(u, priceFor(TABLE, u.model))).toBeCloseTo(0.2 * 3 + 0.5 * 0.3 + 0.3 * 3.75 + 0.1 * 15, 10);
  });

  it('charges DeepSeek hits at the hit price and misses at the input price', () => {
    const u = step({
      model: 'deepseek-chat',
      protocol: 'deepseek',
      input_tokens: 2_000_000,
      cache_read_tokens: 1_500_000,
      output_tokens: 1_000_000,
    });
    expect(costOf(u, priceFor(TABLE, 'deepseek-chat'))).toBeCloseTo(0.5 * 0.56 + 1.5 * 0.07 + 1.68, 10);
  });

  it('charges cached input as plain input when the model has no cache prices', () => {
    const u = step({ model: 'local-model', cache_read_tokens: 400_000, cache_write_tokens: 100_000 });
    expect(costOf(u, priceFor(TABLE, 'local-model'))).toBeCloseTo(1 * 1 + 0.1 * 2, 10);
  });

  it('counts reasoning inside output, not on top of it', () => {
    const u = step({ model: 'local-model', input_tokens: 0, output_tokens: 1_000_000, reasoning_tokens: 600_000 });
    expect(costOf(u, priceFor(TABLE, 'local-model'))).toBeCloseTo(2, 10);
  });

  it('is null without a price: no table, or a model that is not in it (even a similar name)', () => {
    expect(costOf(step(), null)).toBeNull();
    expect(priceFor(null, 'claude-sonnet-4-0')).toBeNull();
    expect(priceFor(TABLE, 'claude-sonnet-4-0-20250514')).toBeNull();
    expect(priceFor(TABLE, 'CLAUDE-SONNET-4-0')?.input).toBe(3);
  });
});

describe('usageTotals', () => {
  const history: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: 'hi' },
    answer(step({ cache_read_tokens: 500_000 })),
    { role: 'tool', tool_call_id: 'a', content: 'x' },
    answer(step({ model: 'unknown-model', input_tokens: 10, output_tokens: 5 })),
    answer(
      step({
        model: 'deepseek-chat',
        reported: { input: false, output: true, cache: false },
        input_tokens: 1000,
        output_tokens: 10,
      }),
    ),
    answer(undefined, 'an answer saved before usage was stamped'),
  ];

  it('sums every stamped step, prices the priced ones and counts the unpriced and estimated ones', () => {
    const t = usageTotals(history, TABLE);
    expect(t).toMatchObject({
      steps: 3,
      input_tokens: 1_001_010,
      output_tokens: 100_015,
      cache_read_tokens: 500_000,
      cache_write_tokens: 0,
      unpriced_steps: 1,
      estimated_steps: 1,
    });
    const sonnet = 0.5 * 3 + 0.5 * 0.3 + 0.1 * 15;
    const deepseek = (1000 * 0.56 + 10 * 1.68) / 1_000_000;
    expect(t.cost).toBeCloseTo(sonnet + deepseek, 10);
  });

  it('has cost null when no step had a price, and 0 steps for a history without usage', () => {
    expect(usageTotals(history, null)).toMatchObject({ steps: 3, cost: null, unpriced_steps: 3 });
    expect(usageTotals([{ role: 'user', content: 'hi' }], TABLE)).toMatchObject({ steps: 0, cost: null });
  });

  it('adds sessions into workspace totals; cost stays null only if no session had a priced step', () => {
    const a = usageTotals(history, TABLE);
    const b = usageTotals(history, null);
    const sum = addTotals(a, b);
    expect(sum).toMatchObject({ steps: 6, unpriced_steps: 4, estimated_steps: 2, input_tokens: 2 * 1_001_010 });
    expect(sum.cost).toBeCloseTo(a.cost!, 10);
    expect(addTotals(b, b).cost).toBeNull();
    expect(addTotals().steps).toBe(0);
  });
});

describe('price table', () => {
  it('accepts every preset and refuses bad tables with E_PRICES_INVALID naming each path', () => {
    for (const p of PRICE_PRESETS) expect(checkPriceTable(p.table)).toEqual([]);
    const bad = {
      as_of: '2026-13-01',
      prices: [
        { model: 'a', input: -1, output: 2 },
        { model: 'A', input: 1, output: 1, cache_read: 'cheap' },
        { model: ' b', input: 1, output: 1, extra: 1 },
      ],
      more: 1,
    };
    const problems = checkPriceTable(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^more: unknown field/),
        expect.stringMatching(/^as_of:/),
        expect.stringMatching(/^prices\.0\.input:/),
        expect.stringMatching(/^prices\.1\.model: "A" is listed twice/),
        expect.stringMatching(/^prices\.1\.cache_read:/),
        expect.stringMatching(/^prices\.2\.extra: unknown field/),
        expect.stringMatching(/^prices\.2\.model:/),
      ]),
    );
    let error: unknown;
    try {
      parsePriceTable(bad);
    } catch (e) {
      error = e;
    }
    expect(HarnessError.isInstance(error) && error.code).toBe('E_PRICES_INVALID');
    expect((error as Error).message).toMatch(/more\)\. Correct these entries/);
  });

  it('merges a preset into the person table keeping the older date, and dates an edit today', () => {
    const anthropic = PRICE_PRESETS.find((p) => p.provider === 'anthropic')!.table;
    const deepseek = PRICE_PRESETS.find((p) => p.provider === 'deepseek')!.table;
    const mine = withPrice(null, 'my-model', { input: 1, output: 1 }, '2026-12-01');
    const merged = mergePrices(mergePrices(mine, anthropic), deepseek);
    expect(merged.as_of).toBe(deepseek.as_of);
    expect(priceFor(merged, 'my-model')?.input).toBe(1);
    expect(priceFor(merged, 'claude-sonnet-4-0')?.cache_write).toBe(3.75);
    expect(priceFor(merged, 'deepseek-chat')?.cache_read).toBe(0.07);
    const edited = withPrice(merged, 'deepseek-chat', null, '2026-12-03');
    expect(edited.as_of).toBe('2026-12-03');
    expect(priceFor(edited, 'deepseek-chat')).toBeNull();
    expect(mergePrices(null, anthropic)).toEqual(anthropic);
    // Adding a vendor list again keeps a price the person changed.
    const mineNow = withPrice(merged, 'deepseek-chat', { input: 0.1, output: 0.2 }, '2026-12-04');
    expect(priceFor(mergePrices(mineNow, deepseek), 'deepseek-chat')).toMatchObject({ input: 0.1, output: 0.2 });
  });
});
