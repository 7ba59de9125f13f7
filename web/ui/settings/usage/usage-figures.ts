// The pure parts of Settings → Usage: the price form (text fields → a ModelPrice, or which field is wrong), the
// offered price lists, and the cache view's figures from the cache statistics (seed 000 §8): the hit ratio overall
// and over the latest requests, the per-request series, the streams, and where input missed the cache per class.
import type { CacheRecord, CacheReport, PredictionClass } from '../../../core/page';
import { PRICE_PRESETS, type PricePreset } from '../../../core/page';
import type { ModelPrice } from '../../../core/contracts';

export type PriceField = 'input' | 'output' | 'cache_read' | 'cache_write';
export type PriceForm = { model: string } & Record<PriceField, string>;

export const EMPTY_PRICE_FORM: PriceForm = { model: '', input: '', output: '', cache_read: '', cache_write: '' };

export const formFromPrice = (p: ModelPrice): PriceForm => ({
  model: p.model,
  input: String(p.input),
  output: String(p.output),
  cache_read: p.cache_read === undefined ? '' : String(p.cache_read),
  cache_write: p.cache_write === undefined ? '' : String(p.cache_write),
});

export type PriceFormResult =
  | { ok: true; model: string; price: Omit<ModelPrice, 'model'> }
  | { ok: false; problem: 'model' }
  | { ok: false; problem: 'number'; field: PriceField };

/** Reads the form. Input and output are required; an empty cache price is left out (charged as input). Ranges are
 *  checked by the core's parsePriceTable when the table is saved. */
export function priceFromForm(form: PriceForm): PriceFormResult {
  const model = form.model.trim();
  if (!model) return { ok: false, problem: 'model' };
  const price: Omit<ModelPrice, 'model'> = { input: 0, output: 0 };
  for (const field of ['input', 'output', 'cache_read', 'cache_write'] as const) {
    const text = form[field].trim();
    if (text === '' && (field === 'cache_read' || field === 'cache_write')) continue;
    // Number('') is 0 and Number('1e3') is 1000: only plain decimals are prices a person types.
    if (!/^\d+(\.\d+)?$|^\.\d+$/.test(text)) return { ok: false, problem: 'number', field };
    price[field] = Number(text);
  }
  return { ok: true, model, price };
}

/** The price lists offered, one per vendor (two provider presets can share one list, e.g. OpenAI's two APIs). */
export function presetChoices(presets: readonly PricePreset[] = PRICE_PRESETS): PricePreset[] {
  const seen = new Set<unknown>();
  return presets.filter((p) => p.table.prices.length > 0 && !seen.has(p.table) && seen.add(p.table));
}

export interface ClassFigures {
  class: PredictionClass;
  requests: number;
  /** Observed input tokens of this class's requests with known usage, and how much of it was not read from cache. */
  input: number;
  missed: number;
}

export interface CacheFigures {
  overall: number | null;
  /** Σ cache read / Σ input over the latest `recentCount` answered requests with known usage. */
  recent: number | null;
  recentCount: number;
  /** Per answered request with known usage, oldest first (the sparkline). */
  series: { ratio: number; class: PredictionClass }[];
  /** Distinct streams (namespace + model + session) among the kept records. */
  streams: number;
  classes: ClassFigures[];
}

const CLASSES: readonly PredictionClass[] = ['new', 'append', 'reset', 'compact'];
const ratio = (read: number, input: number) => (input > 0 ? read / input : null);

/**
 * Figures of the cache view. The overall ratio and the request counts per class are the report's (cumulative,
 * surviving the 200-record trim); the recent ratio, the series and the missed input per class come from the kept
 * records, so they cover at most the latest 200 requests.
 */
export function cacheFigures(report: CacheReport, records: readonly CacheRecord[], recentN = 20): CacheFigures {
  const known = records.filter(
    (r): r is CacheRecord & { input: number; cache_read: number } =>
      r.observed && r.input !== null && r.cache_read !== null,
  );
  const recent = known.slice(-recentN);
  const sum = (list: typeof known, f: (r: (typeof known)[number]) => number) => list.reduce((n, r) => n + f(r), 0);
  const classes = CLASSES.map((c): ClassFigures => {
    const mine = known.filter((r) => r.class === c);
    const input = sum(mine, (r) => r.input);
    return {
      class: c,
      requests: report.classes[c] ?? 0,
      input,
      missed: Math.max(0, input - sum(mine, (r) => r.cache_read)),
    };
  });
  return {
    overall: report.observed_token_hit_ratio,
    recent: ratio(
      sum(recent, (r) => r.cache_read),
      sum(recent, (r) => r.input),
    ),
    recentCount: recent.length,
    series: known.slice(-40).map((r) => ({ ratio: Math.min(1, ratio(r.cache_read, r.input) ?? 0), class: r.class })),
    streams: new Set(records.map((r) => r.stream)).size,
    classes,
  };
}
