// Price presets for the built-in provider presets (web/core/providers/presets.ts), offered to the person and never
// applied by themselves. Each table is dated and names where its numbers come from; a model whose price could not
// be checked against the vendor's pricing page is left out (its cost shows "—" until the person adds it).
//
// How they were checked (2026-12-02, against stored copies of the pages, not the live web):
// - Anthropic: the model pricing table of docs.anthropic.com / platform.claude.com ("Base input", "5m cache writes",
//   "Cache hits", "Output"). cache_write is the 5-minute write price, which cache.json's default ttl uses; with
//   "ttl": "1h" the write price doubles and should be edited. Newer models (Sonnet 5/5.5, Haiku 4.5/5.5) are left
//   out: their cache prices changed during 2026 and the stored pages disagree.
// - OpenAI: developers.openai.com/api/docs/pricing was not among the stored pages; the GPT-4.1 and GPT-4o families'
//   input / cached input / output prices are the same in every stored copy quoting it. The GPT-5 family is left out
//   (the copies disagree on cached input). OpenAI reports no cache writes, so cache_write is absent.
// - DeepSeek: api-docs.deepseek.com/quick_start/pricing, the price list in force from 2025-09-05 (cache hit / cache
//   miss / output, the same for deepseek-chat and deepseek-reasoner). Its date is the page's, not the check's,
//   because later stored pages name other models and peak-hour prices this table cannot express.
import type { PriceTable } from '../contracts';

export interface PricePreset {
  /** The provider preset id it belongs to (PROVIDER_PRESETS[].id). */
  provider: string;
  label: string;
  source: string;
  table: PriceTable;
}

const anthropic = (model: string, input: number, output: number, read: number, write: number) => ({
  model,
  input,
  output,
  cache_read: read,
  cache_write: write,
});
const openai = (model: string, input: number, cached: number, output: number) => ({
  model,
  input,
  output,
  cache_read: cached,
});

const ANTHROPIC: PriceTable = {
  as_of: '2026-12-02',
  prices: [
    anthropic('claude-opus-4-7', 5, 25, 0.5, 6.25),
    anthropic('claude-opus-4-6', 5, 25, 0.5, 6.25),
    anthropic('claude-opus-4-5', 5, 25, 0.5, 6.25),
    anthropic('claude-opus-4-5-20251101', 5, 25, 0.5, 6.25),
    anthropic('claude-opus-4-1', 15, 75, 1.5, 18.75),
    anthropic('claude-opus-4-1-20250805', 15, 75, 1.5, 18.75),
    anthropic('claude-opus-4-0', 15, 75, 1.5, 18.75),
    anthropic('claude-opus-4-20250514', 15, 75, 1.5, 18.75),
    anthropic('claude-sonnet-4-0', 3, 15, 0.3, 3.75),
    anthropic('claude-sonnet-4-20250514', 3, 15, 0.3, 3.75),
    anthropic('claude-3-7-sonnet-latest', 3, 15, 0.3, 3.75),
    anthropic('claude-3-7-sonnet-20250219', 3, 15, 0.3, 3.75),
    anthropic('claude-3-5-haiku-latest', 0.8, 4, 0.08, 1),
    anthropic('claude-3-5-haiku-20241022', 0.8, 4, 0.08, 1),
    anthropic('claude-3-haiku-20240307', 0.25, 1.25, 0.03, 0.3),
  ],
};

const OPENAI: PriceTable = {
  as_of: '2026-12-02',
  prices: [
    openai('gpt-4.1', 2, 0.5, 8),
    openai('gpt-4.1-mini', 0.4, 0.1, 1.6),
    openai('gpt-4.1-nano', 0.1, 0.025, 0.4),
    openai('gpt-4o', 2.5, 1.25, 10),
    openai('gpt-4o-mini', 0.15, 0.075, 0.6),
  ],
};

const DEEPSEEK: PriceTable = {
  as_of: '2025-09-05',
  prices: [
    { model: 'deepseek-chat', input: 0.56, output: 1.68, cache_read: 0.07 },
    { model: 'deepseek-reasoner', input: 0.56, output: 1.68, cache_read: 0.07 },
  ],
};

export const PRICE_PRESETS: readonly PricePreset[] = [
  { provider: 'openai', label: 'OpenAI', source: 'https://developers.openai.com/api/docs/pricing', table: OPENAI },
  {
    provider: 'openai-responses',
    label: 'OpenAI',
    source: 'https://developers.openai.com/api/docs/pricing',
    table: OPENAI,
  },
  {
    provider: 'anthropic',
    label: 'Anthropic',
    source: 'https://platform.claude.com/docs/en/about-claude/pricing',
    table: ANTHROPIC,
  },
  {
    provider: 'deepseek',
    label: 'DeepSeek',
    source: 'https://api-docs.deepseek.com/quick_start/pricing',
    table: DEEPSEEK,
  },
];

/** The preset for a provider preset id, or undefined (OpenRouter and local servers have none: prices vary or are 0). */
export function pricePresetFor(provider: string): PricePreset | undefined {
  return PRICE_PRESETS.find((p) => p.provider === provider);
}
