// Session and workspace totals over the `_usage` the loop stamps on assistant messages. Cost adds only steps whose
// model has a price; the others are counted in `unpriced_steps` so a partial sum is never shown as the whole.
import type { Message } from '../contracts';
import { costOf, priceFor } from './prices';
import type { PriceTable, StepUsage, UsageTotals } from '../contracts';

export const EMPTY_TOTALS: Readonly<UsageTotals> = Object.freeze({
  steps: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost: null,
  unpriced_steps: 0,
  estimated_steps: 0,
});

/** A step is an estimate when the provider did not report its input or output (cache figures are 0 then, not guessed). */
export const isEstimated = (u: StepUsage): boolean => !u.reported.input || !u.reported.output;

function addStep(t: UsageTotals, u: StepUsage, table: PriceTable | null | undefined): void {
  t.steps++;
  t.input_tokens += u.input_tokens;
  t.output_tokens += u.output_tokens;
  t.cache_read_tokens += u.cache_read_tokens;
  t.cache_write_tokens += u.cache_write_tokens;
  const cost = costOf(u, priceFor(table, u.model));
  if (cost === null) t.unpriced_steps++;
  else t.cost = (t.cost ?? 0) + cost;
  if (isEstimated(u)) t.estimated_steps++;
}

/** Totals of one session: every assistant message with `_usage` (folded ones too, when the log is passed). */
export function usageTotals(messages: readonly Message[], table: PriceTable | null | undefined): UsageTotals {
  const t: UsageTotals = { ...EMPTY_TOTALS };
  for (const m of messages) if (m.role === 'assistant' && m._usage) addStep(t, m._usage, table);
  return t;
}

/** Totals of several sessions (a workspace): sums; cost stays null only when no session had a priced step. */
export function addTotals(...all: readonly UsageTotals[]): UsageTotals {
  const t: UsageTotals = { ...EMPTY_TOTALS };
  for (const x of all) {
    t.steps += x.steps;
    t.input_tokens += x.input_tokens;
    t.output_tokens += x.output_tokens;
    t.cache_read_tokens += x.cache_read_tokens;
    t.cache_write_tokens += x.cache_write_tokens;
    t.unpriced_steps += x.unpriced_steps;
    t.estimated_steps += x.estimated_steps;
    if (x.cost !== null) t.cost = (t.cost ?? 0) + x.cost;
  }
  return t;
}

/** Σ cache read / Σ input of some totals (seed 000 §8's ratio), or null before any input. */
export const cacheHitRatio = (t: Pick<UsageTotals, 'input_tokens' | 'cache_read_tokens'>): number | null =>
  t.input_tokens > 0 ? t.cache_read_tokens / t.input_tokens : null;
