import { describe, expect, it } from 'vitest';
import type { ContextBreakdown, ContextSize } from '../../core/contracts';
import {
  breakdownRows,
  formatCost,
  formatCount,
  formatPercent,
  formatTokens,
  meterFractions,
  meterLevel,
  partsDiffer,
  shareOf,
} from './meter-format';

const size = (tokens: number, window: number | null, trigger: number | null = null): ContextSize => ({
  tokens,
  window,
  trigger,
  estimated: false,
});

describe('context meter figures', () => {
  it('shortens token counts for the bar and keeps exact ones grouped for tooltips', () => {
    expect(formatTokens(0)).toBe('0');
    expect(formatTokens(850)).toBe('850');
    expect(formatTokens(1000)).toBe('1k');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(9_960)).toBe('10k');
    expect(formatTokens(12_345)).toBe('12k');
    expect(formatTokens(128_000)).toBe('128k');
    expect(formatTokens(999_700)).toBe('1M');
    expect(formatTokens(1_250_000)).toBe('1.3M');
    expect(formatCount(12_345)).toBe('12,345');
  });

  it('shows no price as a dash, never as a guessed or zero cost', () => {
    expect(formatCost(null)).toBe('—');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.00042)).toBe('$0.0004');
    expect(formatCost(1.5)).toBe('$1.50');
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(0.962)).toBe('96%');
    expect(formatPercent(0.045)).toBe('4.5%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('colours the meter against the compaction trigger, else the window, and not at all without either', () => {
    expect(meterLevel(size(50_000, 128_000, 100_000))).toBe('ok');
    expect(meterLevel(size(80_000, 128_000, 100_000))).toBe('near');
    expect(meterLevel(size(100_000, 128_000, 100_000))).toBe('over');
    expect(meterLevel(size(110_000, 128_000))).toBe('near');
    expect(meterLevel(size(130_000, 128_000))).toBe('over');
    expect(meterLevel(size(5_000_000, null))).toBe('none');
  });

  it('fills the ring by used / window and marks the trigger where it sits, clamped to the ring', () => {
    expect(meterFractions(size(32_000, 128_000, 96_000))).toEqual({ used: 0.25, trigger: 0.75 });
    expect(meterFractions(size(200_000, 128_000))).toEqual({ used: 1, trigger: null });
    expect(meterFractions(size(200_000, null))).toBeNull();
  });

  it('gives each part its share of the window, or of the request when no window is known', () => {
    expect(shareOf(32_000, size(64_000, 128_000))).toBe(0.25);
    expect(shareOf(16_000, size(64_000, null))).toBe(0.25);
    expect(shareOf(1, size(0, null))).toBe(0);
  });
});

describe('context breakdown rows', () => {
  const breakdown = (size: ContextSize, parts: ContextBreakdown['parts']): ContextBreakdown => ({
    size,
    parts,
    would_fold: null,
  });
  const parts: ContextBreakdown['parts'] = [
    { kind: 'system', tokens: 1500, items: 1 },
    { kind: 'instructions', tokens: 0, items: 0 },
    { kind: 'tools:builtin', tokens: 4700, items: 7 },
    { kind: 'tools:mcp', tokens: 0, items: 0 },
    { kind: 'history', tokens: 800, items: 10 },
  ];

  it('lists the parts that hold something in request order and the free room last when the window is known', () => {
    expect(breakdownRows(breakdown(size(7000, 128_000), parts)).map((r) => [r.kind, r.tokens])).toEqual([
      ['system', 1500],
      ['tools:builtin', 4700],
      ['history', 800],
      ['free', 121_000],
    ]);
    expect(breakdownRows(breakdown(size(7000, null), parts)).map((r) => r.kind)).toEqual([
      'system',
      'tools:builtin',
      'history',
    ]);
    expect(breakdownRows(breakdown(size(200_000, 128_000), parts)).at(-1)).toEqual({
      kind: 'free',
      tokens: 0,
      items: 0,
    });
  });

  it('says when the parts do not add up to a total the provider counted, and not for an estimated total', () => {
    expect(partsDiffer(breakdown(size(98_000, 128_000), parts))).toBe(7000);
    expect(partsDiffer(breakdown(size(7200, 128_000), parts))).toBeNull();
    expect(partsDiffer(breakdown({ ...size(98_000, 128_000), estimated: true }, parts))).toBeNull();
  });
});
