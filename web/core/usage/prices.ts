// Prices and cost (issue 15). A price table is the person's: US dollars per million tokens per model, dated. It is
// checked strictly wherever it enters (settings, import), and cost is computed only from it: a model without a
// price costs "—" (null), never a guess from a similar name.
import { HarnessError } from '../contracts';
import type { ModelPrice, PriceTable, StepUsage } from '../contracts';

/** A table this long is not a person's list of models; the cap keeps settings documents small. */
export const MAX_PRICES = 500;
/** No real price per million tokens comes near this; a bigger number is a typo (a per-token price pasted ×10⁶). */
export const MAX_PRICE_PER_MILLION = 100_000;
const MAX_MODEL_CHARS = 200;
const PRICE_KEYS = ['model', 'input', 'output', 'cache_read', 'cache_write'];

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** YYYY-MM-DD that is a real calendar day. */
export function isIsoDate(text: unknown): text is string {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

const priceProblem = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_PRICE_PER_MILLION
    ? null
    : `expected a number of dollars per million tokens from 0 to ${MAX_PRICE_PER_MILLION}`;

/** Every problem of a price table, each with its path inside the table (`prices.2.input: …`). Empty when valid. */
export function checkPriceTable(value: unknown): string[] {
  if (!isObj(value)) return ['expected an object {"as_of": "YYYY-MM-DD", "prices": [...]}'];
  const problems: string[] = [];
  for (const key of Object.keys(value))
    if (key !== 'as_of' && key !== 'prices') problems.push(`${key}: unknown field (allowed: as_of, prices)`);
  if (!isIsoDate(value.as_of)) problems.push('as_of: expected the date the prices were checked, as YYYY-MM-DD');
  if (!Array.isArray(value.prices)) {
    problems.push('prices: expected an array of {"model", "input", "output", "cache_read"?, "cache_write"?}');
    return problems;
  }
  if (value.prices.length > MAX_PRICES) problems.push(`prices: at most ${MAX_PRICES} models`);
  const seen = new Set<string>();
  value.prices.forEach((p: unknown, i) => {
    const at = `prices.${i}`;
    if (!isObj(p)) return void problems.push(`${at}: expected an object`);
    for (const key of Object.keys(p))
      if (!PRICE_KEYS.includes(key)) problems.push(`${at}.${key}: unknown field (allowed: ${PRICE_KEYS.join(', ')})`);
    if (
      typeof p.model !== 'string' ||
      p.model.trim() === '' ||
      p.model !== p.model.trim() ||
      p.model.length > MAX_MODEL_CHARS
    ) {
      problems.push(
        `${at}.model: expected the model name as sent to the provider (1-${MAX_MODEL_CHARS} characters, no surrounding spaces)`,
      );
    } else {
      // One price per model: priceFor matches case-insensitively, so "GPT-4o" and "gpt-4o" would be ambiguous.
      const key = p.model.toLowerCase();
      if (seen.has(key)) problems.push(`${at}.model: "${p.model}" is listed twice`);
      seen.add(key);
    }
    for (const field of ['input', 'output'] as const) {
      const problem = priceProblem(p[field]);
      if (problem) problems.push(`${at}.${field}: ${problem}`);
    }
    for (const field of ['cache_read', 'cache_write'] as const) {
      if (p[field] === undefined) continue;
      const problem = priceProblem(p[field]);
      if (problem) problems.push(`${at}.${field}: ${problem} (or leave it out: that part is then charged as input)`);
    }
  });
  return problems;
}

/** The table, checked; throws E_PRICES_INVALID naming every problem (at most five shown) and what to do. */
export function parsePriceTable(value: unknown, where = 'the price table'): PriceTable {
  const problems = checkPriceTable(value);
  if (problems.length > 0) {
    const more = problems.length > 5 ? ` (${problems.length - 5} more)` : '';
    throw new HarnessError(
      'E_PRICES_INVALID',
      `${where} was not accepted: ${problems.slice(0, 5).join('; ')}${more}. Correct these entries, or remove the model to show its cost as "—".`,
      { problems },
    );
  }
  const t = value as PriceTable;
  return { as_of: t.as_of, prices: t.prices.map((p) => ({ ...p })) };
}

/** The price of `model` (exact name, case-insensitive), or null: no table, or the model is not in it. */
export function priceFor(table: PriceTable | null | undefined, model: string): ModelPrice | null {
  if (!table) return null;
  const key = model.toLowerCase();
  return table.prices.find((p) => p.model.toLowerCase() === key) ?? null;
}

/**
 * Dollars one step cost, or null without a price. Cache reads at cache_read, cache writes at cache_write, the rest
 * of the input at input, output (reasoning included: providers bill it as output) at output. A missing cache price
 * charges that part as plain input, which is what a provider without a cache discount bills.
 */
export function costOf(usage: StepUsage, price: ModelPrice | null): number | null {
  if (!price) return null;
  const read = Math.max(0, usage.cache_read_tokens);
  const write = Math.max(0, usage.cache_write_tokens);
  // input_tokens is ALL input (seed 000 §8); a provider reporting more cache than input is clamped, not negative.
  const plain = Math.max(0, usage.input_tokens - read - write);
  const dollars =
    plain * price.input +
    read * (price.cache_read ?? price.input) +
    write * (price.cache_write ?? price.input) +
    Math.max(0, usage.output_tokens) * price.output;
  return dollars / 1_000_000;
}

const older = (a: string, b: string) => (a <= b ? a : b);

/**
 * The person's table with a preset's models added. A model already in the table keeps the person's price (it may be
 * a negotiated or corrected one: adding a vendor list must not overwrite it). A mix is only as fresh as its oldest
 * check, so the merged table keeps the older date.
 */
export function mergePrices(table: PriceTable | null | undefined, preset: PriceTable): PriceTable {
  if (!table || table.prices.length === 0) return { as_of: preset.as_of, prices: preset.prices.map((p) => ({ ...p })) };
  const byModel = new Map(table.prices.map((p) => [p.model.toLowerCase(), { ...p }]));
  for (const p of preset.prices) if (!byModel.has(p.model.toLowerCase())) byModel.set(p.model.toLowerCase(), { ...p });
  return { as_of: older(table.as_of, preset.as_of), prices: [...byModel.values()] };
}

/** The table after the person sets (or, with `price: null`, removes) one model's price; dated `today`. */
export function withPrice(
  table: PriceTable | null | undefined,
  model: string,
  price: Omit<ModelPrice, 'model'> | null,
  today: string,
): PriceTable {
  const key = model.toLowerCase();
  const rest = (table?.prices ?? []).filter((p) => p.model.toLowerCase() !== key);
  return { as_of: today, prices: price ? [...rest, { model, ...price }] : rest };
}
