import { describe, expect, it } from 'vitest';
import { cacheReport, emptyStats } from '../../../core/modules';
import type { CacheRecord, PredictionClass } from '../../../core/page';
import type { PricePreset } from '../../../core/page';
import { cacheFigures, formFromPrice, presetChoices, priceFromForm, EMPTY_PRICE_FORM } from './usage-figures';

let n = 0;
const record = (
  cls: PredictionClass,
  input: number | null,
  read: number | null,
  stream = 's1',
  observed = true,
): CacheRecord => ({
  id: `r${++n}`,
  at: n,
  stream,
  class: cls,
  protocol: 'openai',
  model: 'm',
  prepared: 1,
  observed,
  input,
  cache_read: read,
  output: 10,
});

describe('price form', () => {
  it('reads prices typed as plain decimals and leaves empty cache prices out (charged as input)', () => {
    expect(priceFromForm({ model: ' gpt-4.1 ', input: '2', output: '8', cache_read: '0.5', cache_write: '' })).toEqual({
      ok: true,
      model: 'gpt-4.1',
      price: { input: 2, output: 8, cache_read: 0.5 },
    });
    expect(priceFromForm({ model: 'm', input: '.25', output: '1.25', cache_read: '', cache_write: '0.3' })).toEqual({
      ok: true,
      model: 'm',
      price: { input: 0.25, output: 1.25, cache_write: 0.3 },
    });
  });

  it('names the field that is not a price instead of saving 0 or a power of ten', () => {
    expect(priceFromForm({ ...EMPTY_PRICE_FORM, model: 'm', input: '', output: '1' })).toEqual({
      ok: false,
      problem: 'number',
      field: 'input',
    });
    expect(priceFromForm({ ...EMPTY_PRICE_FORM, model: 'm', input: '1', output: '1e3' })).toEqual({
      ok: false,
      problem: 'number',
      field: 'output',
    });
    expect(priceFromForm({ ...EMPTY_PRICE_FORM, model: 'm', input: '1', output: '2', cache_read: '-1' })).toEqual({
      ok: false,
      problem: 'number',
      field: 'cache_read',
    });
    expect(priceFromForm({ ...EMPTY_PRICE_FORM, model: '  ', input: '1', output: '2' })).toEqual({
      ok: false,
      problem: 'model',
    });
  });

  it('fills the form back from a saved price, cache prices empty when absent', () => {
    expect(formFromPrice({ model: 'x', input: 3, output: 15, cache_read: 0.3 })).toEqual({
      model: 'x',
      input: '3',
      output: '15',
      cache_read: '0.3',
      cache_write: '',
    });
  });

  it('offers one list per vendor even when two provider presets share it, and none that is empty', () => {
    const shared = { as_of: '2026-01-01', prices: [{ model: 'a', input: 1, output: 2 }] };
    const presets: PricePreset[] = [
      { provider: 'openai', label: 'OpenAI', source: 's', table: shared },
      { provider: 'openai-responses', label: 'OpenAI', source: 's', table: shared },
      { provider: 'empty', label: 'Empty', source: 's', table: { as_of: '2026-01-01', prices: [] } },
      {
        provider: 'deepseek',
        label: 'DeepSeek',
        source: 's',
        table: { as_of: '2025-09-05', prices: [{ model: 'd', input: 1, output: 1 }] },
      },
    ];
    expect(presetChoices(presets).map((p) => p.provider)).toEqual(['openai', 'deepseek']);
  });
});

describe('cache view figures', () => {
  it('gives the overall ratio from the report and the recent ratio, series and streams from the kept records', () => {
    const stats = emptyStats('default');
    stats.totals = {
      prepared: 5,
      observed: 5,
      unknown_usage: 1,
      input_tokens: 4000,
      cache_read_tokens: 2000,
      output_tokens: 50,
      classes: { new: 2, append: 2, reset: 1, compact: 0 },
    };
    const records = [
      record('new', 1000, 0),
      record('append', 1000, 900),
      record('new', 1000, 0, 's2'),
      record('append', null, null),
      record('reset', 1000, 100, 's2'),
    ];
    const f = cacheFigures(cacheReport(stats, 0.99), records, 2);
    expect(f.overall).toBe(0.5);
    // The latest two requests with usage: 1000 (0 read) and 1000 (100 read); the one without usage is skipped.
    expect(f.recent).toBeCloseTo(0.05);
    expect(f.recentCount).toBe(2);
    expect(f.series.map((s) => s.ratio)).toEqual([0, 0.9, 0, 0.1]);
    expect(f.streams).toBe(2);
  });

  it('explains missed input per class: requests from the cumulative counts, missed tokens from the records', () => {
    const stats = emptyStats('default');
    stats.totals.classes = { new: 7, append: 3, reset: 1, compact: 1 };
    stats.totals.input_tokens = 1;
    const records = [
      record('new', 1000, 0),
      record('append', 2000, 1500),
      record('append', 2000, 2000),
      record('compact', 500, 0),
      record('reset', 800, null, 's1', true),
      record('append', null, null, 's1', false),
    ];
    const byClass = Object.fromEntries(cacheFigures(cacheReport(stats, 0.9), records).classes.map((c) => [c.class, c]));
    expect(byClass.new).toEqual({ class: 'new', requests: 7, input: 1000, missed: 1000 });
    expect(byClass.append).toEqual({ class: 'append', requests: 3, input: 4000, missed: 500 });
    expect(byClass.compact).toEqual({ class: 'compact', requests: 1, input: 500, missed: 500 });
    // A record whose cache figure is unknown is not counted as a miss.
    expect(byClass.reset).toEqual({ class: 'reset', requests: 1, input: 0, missed: 0 });
  });

  it('has no ratio before any input was observed', () => {
    const f = cacheFigures(cacheReport(emptyStats('default'), 0.99), []);
    expect(f.overall).toBeNull();
    expect(f.recent).toBeNull();
    expect(f.series).toEqual([]);
  });
});
