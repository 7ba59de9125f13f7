// The cache statistics document (seed 000 §8) and its pure updates. It holds counts, hashes and classes only:
// never prompts, tool bodies or credentials. The latest 200 records and 256 streams are kept; the cumulative
// counters survive trimming. Ratio = Σ cache-read input / Σ all input over responses with known usage;
// `target_met` is null while any usage was unknown or any prepared request (each physical retry counts) was never
// observed: preparing is not proof that an HTTP request was answered, and a cold, missed or expired request is
// kept as it is, never presumed a hit from a matching prefix.
import type { InputUsage } from './provider-usage';

export const MAX_RECORDS = 200;
export const MAX_STREAMS = 256;
export const STATS_VERSION = 1;

export type PredictionClass = 'new' | 'append' | 'reset' | 'compact';

export interface CacheRecord {
  id: string;
  at: number;
  /** Hash of the stream key (namespace, model, session). */
  stream: string;
  class: PredictionClass;
  protocol: string;
  model: string;
  /** Preparations of this request: 1 plus one per physical retry. */
  prepared: number;
  observed: boolean;
  /** null until observed, or when the response's usage was unknown. */
  input: number | null;
  cache_read: number | null;
  output: number | null;
}

export interface StreamState {
  /** Number of prefix items seen last time and the hash chain head over them. */
  items: number;
  head: string;
  last_at: number;
  /** A compaction summary was requested: the next diverging request is classed `compact`, not `reset`. */
  compacting: boolean;
}

export interface CacheTotals {
  prepared: number;
  observed: number;
  unknown_usage: number;
  input_tokens: number;
  cache_read_tokens: number;
  output_tokens: number;
  classes: Record<PredictionClass, number>;
}

export interface CacheStats {
  version: typeof STATS_VERSION;
  namespace: string;
  totals: CacheTotals;
  records: CacheRecord[];
  streams: Record<string, StreamState>;
}

export function emptyStats(namespace: string): CacheStats {
  return {
    version: STATS_VERSION,
    namespace,
    totals: {
      prepared: 0,
      observed: 0,
      unknown_usage: 0,
      input_tokens: 0,
      cache_read_tokens: 0,
      output_tokens: 0,
      classes: { new: 0, append: 0, reset: 0, compact: 0 },
    },
    records: [],
    streams: {},
  };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored document, or a fresh one when there is none; anything else is refused rather than overwritten. */
export function parseStats(value: unknown, namespace: string): CacheStats | null {
  if (value === undefined) return emptyStats(namespace);
  if (
    !isObj(value) ||
    value.version !== STATS_VERSION ||
    !isObj(value.totals) ||
    !Array.isArray(value.records) ||
    !isObj(value.streams)
  )
    return null;
  return value as unknown as CacheStats;
}

export function addPrepared(s: CacheStats, record: CacheRecord, streamKey: string, stream: StreamState): void {
  s.totals.prepared++;
  s.totals.classes[record.class]++;
  s.records.push(record);
  if (s.records.length > MAX_RECORDS) s.records.splice(0, s.records.length - MAX_RECORDS);
  s.streams[streamKey] = stream;
  const keys = Object.keys(s.streams);
  if (keys.length > MAX_STREAMS) {
    keys.sort((a, b) => s.streams[a]!.last_at - s.streams[b]!.last_at);
    for (const k of keys.slice(0, keys.length - MAX_STREAMS)) delete s.streams[k];
  }
}

export function addRetry(s: CacheStats, id: string): void {
  s.totals.prepared++;
  const r = s.records.find((x) => x.id === id);
  if (r) r.prepared++;
}

/** Records one observed response; a second response for the same request is not counted twice. */
export function addObserved(s: CacheStats, id: string, usage: InputUsage | null): void {
  const r = s.records.find((x) => x.id === id);
  if (r?.observed) return;
  s.totals.observed++;
  if (usage) {
    s.totals.input_tokens += usage.input;
    s.totals.cache_read_tokens += usage.cacheRead;
    s.totals.output_tokens += usage.output ?? 0;
  } else {
    s.totals.unknown_usage++;
  }
  if (r) {
    r.observed = true;
    r.input = usage?.input ?? null;
    r.cache_read = usage?.cacheRead ?? null;
    r.output = usage?.output ?? null;
  }
}

export interface CacheReport {
  namespace: string;
  target_hit_ratio: number;
  prepared: number;
  observed: number;
  unknown_usage: number;
  unobserved: number;
  input_tokens: number;
  cache_read_tokens: number;
  observed_token_hit_ratio: number | null;
  target_met: boolean | null;
  classes: Record<PredictionClass, number>;
}

export function cacheReport(s: CacheStats, target: number): CacheReport {
  const t = s.totals;
  const ratio = t.input_tokens > 0 ? t.cache_read_tokens / t.input_tokens : null;
  const unobserved = Math.max(0, t.prepared - t.observed);
  const target_met = ratio === null || t.unknown_usage > 0 || unobserved > 0 ? null : ratio >= target;
  return {
    namespace: s.namespace,
    target_hit_ratio: target,
    prepared: t.prepared,
    observed: t.observed,
    unknown_usage: t.unknown_usage,
    unobserved,
    input_tokens: t.input_tokens,
    cache_read_tokens: t.cache_read_tokens,
    observed_token_hit_ratio: ratio,
    target_met,
    classes: { ...t.classes },
  };
}
