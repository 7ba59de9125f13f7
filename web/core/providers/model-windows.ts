// Context windows of the built-in presets' models, for Settings → Model to fill the field with (seed 003 asks for
// budget.context_window matching the chosen model; the core itself still never guesses one). A model not listed
// here is looked up in the server's model list, and when nothing states it the person types it.
//
// Dated, from the vendors' model pages as stored copies quote them (not the live web): OpenAI's model pages
// ("Context window"), Anthropic's models overview ("Context window", the standard one, not the 1M beta), DeepSeek's
// "Models & Pricing" ("Context length 128K", taken as 128,000: rounding down keeps the budget on the safe side).
// A dated snapshot id (`gpt-4.1-2025-04-14`, `claude-3-5-haiku-20241022`) has its alias's window.

export interface ModelWindowTable {
  /** PROVIDER_PRESETS ids the table serves. */
  presets: readonly string[];
  as_of: string;
  source: string;
  windows: Readonly<Record<string, number>>;
}

export const MODEL_WINDOW_TABLES: readonly ModelWindowTable[] = [
  {
    presets: ['openai', 'openai-responses'],
    as_of: '2026-12-02',
    source: 'OpenAI model pages',
    windows: {
      'gpt-4.1': 1_047_576,
      'gpt-4.1-mini': 1_047_576,
      'gpt-4.1-nano': 1_047_576,
      'gpt-4o': 128_000,
      'gpt-4o-mini': 128_000,
      o3: 200_000,
      'o4-mini': 200_000,
    },
  },
  {
    presets: ['anthropic'],
    as_of: '2026-12-02',
    source: 'Anthropic models overview',
    windows: {
      'claude-opus-4-7': 200_000,
      'claude-opus-4-6': 200_000,
      'claude-opus-4-5': 200_000,
      'claude-opus-4-1': 200_000,
      'claude-opus-4-0': 200_000,
      'claude-opus-4': 200_000,
      'claude-sonnet-4-5': 200_000,
      'claude-sonnet-4-0': 200_000,
      'claude-sonnet-4': 200_000,
      'claude-haiku-4-5': 200_000,
      'claude-3-7-sonnet-latest': 200_000,
      'claude-3-7-sonnet': 200_000,
      'claude-3-5-haiku-latest': 200_000,
      'claude-3-5-haiku': 200_000,
      'claude-3-haiku': 200_000,
    },
  },
  {
    presets: ['deepseek'],
    as_of: '2025-09-05',
    source: 'DeepSeek Models & Pricing',
    windows: { 'deepseek-chat': 128_000, 'deepseek-reasoner': 128_000 },
  },
];

/** A window the preset's table knows for `model`, with the table's source and date; undefined otherwise. */
export function presetContextWindow(
  presetId: string,
  model: string,
): { window: number; source: string; as_of: string } | undefined {
  const table = MODEL_WINDOW_TABLES.find((t) => t.presets.includes(presetId));
  if (!table) return undefined;
  const name = model.trim();
  // An alias, or a dated snapshot of one: -YYYY-MM-DD (OpenAI) or -YYYYMMDD (Anthropic).
  const alias = name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
  const window = table.windows[name] ?? table.windows[alias];
  return window === undefined ? undefined : { window, source: table.source, as_of: table.as_of };
}
