// Figures of the context meter, the /context breakdown, the session totals and Settings → Usage, as a person reads
// them: short token counts for the bar ("12k"), exact ones in tooltips, dollars with no guessing (no price → "—"),
// and the colour step of the meter. Pure, so the thresholds and roundings are unit-tested in Node.
import type { ContextBreakdown, ContextPartKind, ContextSize } from '../../core/contracts';

/** What the meter and the breakdown need of the chat controller (ChatController has all of it). */
export interface MeterChat {
  context: () => ContextSize | null;
  contextBreakdown(): Promise<ContextBreakdown>;
  compact(focus?: string): Promise<void>;
  busy: () => boolean;
  sessionId: () => string | null;
}

export type NumberLocale = 'en' | 'zh';
const tag = (locale: NumberLocale) => (locale === 'zh' ? 'zh-CN' : 'en-US');

/** Exact count with grouping: 12,345. */
export const formatCount = (n: number, locale: NumberLocale = 'en') => Math.round(n).toLocaleString(tag(locale));

/** Short count for the bar: 850, 1.2k, 12k, 128k, 1.2M (one decimal only below 10 of a unit). */
export function formatTokens(n: number): string {
  const v = Math.max(0, Math.round(n));
  if (v < 1000) return String(v);
  const [value, unit] = v < 999_500 ? [v / 1000, 'k'] : [v / 1_000_000, 'M'];
  const shown = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown}${unit}`;
}

/** Dollars: "—" when nothing had a price (never a guessed figure); four decimals below one cent, else two. */
export function formatCost(dollars: number | null): string {
  if (dollars === null) return '—';
  if (dollars === 0) return '$0.00';
  if (dollars < 0.01) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}

/** A ratio as a percentage for people: 0.962 → "96%", below 10 % one decimal ("4.5%"); null → "—". */
export function formatPercent(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  const p = ratio * 100;
  return p > 0 && p < 10 ? `${p.toFixed(1).replace(/\.0$/, '')}%` : `${Math.round(p)}%`;
}

/**
 * The meter's colour step. Measured against the compaction trigger when there is one (that is where something
 * happens to the conversation), else against the window: calm below 80 %, amber from 80 %, red at or past it.
 * Without a window there is nothing to compare with ('none': the tokens alone are shown).
 */
export type MeterLevel = 'none' | 'ok' | 'near' | 'over';
export function meterLevel(size: ContextSize): MeterLevel {
  const limit = size.trigger ?? size.window;
  if (!limit || limit <= 0) return 'none';
  const r = size.tokens / limit;
  return r >= 1 ? 'over' : r >= 0.8 ? 'near' : 'ok';
}

/** The filled fraction of the ring (used / window, 0…1) and where the trigger mark sits on it; null without a window. */
export function meterFractions(size: ContextSize): { used: number; trigger: number | null } | null {
  if (!size.window || size.window <= 0) return null;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  return {
    used: clamp(size.tokens / size.window),
    trigger: size.trigger === null ? null : clamp(size.trigger / size.window),
  };
}

/** A part's share of the window (or of the whole request without a window), 0…1. */
export function shareOf(tokens: number, size: ContextSize): number {
  const whole = size.window && size.window > 0 ? size.window : size.tokens;
  return whole > 0 ? Math.min(1, Math.max(0, tokens / whole)) : 0;
}

export type BreakdownRow = { kind: ContextPartKind | 'free'; tokens: number; items: number };

/**
 * The parts' own sum when it differs from the total by more than 5 %: the total stands on the provider's last count
 * (an anchor) while each part is estimated from its bytes, and a person adding up the rows should be told why.
 */
export function partsDiffer(b: ContextBreakdown): number | null {
  if (b.size.estimated) return null;
  const sum = b.parts.reduce((n, p) => n + p.tokens, 0);
  return Math.abs(sum - b.size.tokens) > 0.05 * Math.max(sum, b.size.tokens) ? sum : null;
}

/** Parts that hold something, in the order the request is built; "Free" last when the window is known. */
export function breakdownRows(b: ContextBreakdown): BreakdownRow[] {
  const rows: BreakdownRow[] = b.parts.filter((p) => p.tokens > 0 || p.items > 0);
  if (b.size.window) rows.push({ kind: 'free', tokens: Math.max(0, b.size.window - b.size.tokens), items: 0 });
  return rows;
}
