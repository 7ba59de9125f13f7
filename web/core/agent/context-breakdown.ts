// The next request, part by part (the `/context` view): system prompt, project instructions (AGENTS.md), the
// memory/skills snapshot and deltas, tool schemas per source, the rest of the history and its images; and what a
// compaction would fold now. Every part uses the budget's estimator (UTF-8 bytes of the wire view, images at
// image_tokens), so the parts are estimates even when `size` is anchored on the provider's usage. Messages are
// classified by the marks their writers set: modules/prompts (project_instructions), modules/context
// (context_snapshot, context_delta); the fold is modules/compact's own planCut with the same keep_recent.
import { DEFAULT_BUDGET, estimateBudget, estimateBytes } from './budget';
import type { BudgetSettings } from '../hooks';
import { DEFAULT_COMPACT_CONFIG, headLength, planCut } from '../modules';
import { knownContext } from '../modules';
import { isProjectInstructions } from '../modules';
import type { Message, ToolSchema } from '../contracts';
import { createContextMeter } from './context-meter';
import type { ContextBreakdown, ContextPartKind } from '../contracts';

export type ToolSource = 'builtin' | 'plugins' | 'bridge' | 'mcp';

export interface BreakdownInput {
  history: readonly Message[];
  tools: ReadonlyArray<{ source: ToolSource; schema: ToolSchema }>;
  budget: BudgetSettings | null;
  /** compact.json keep_recent (default 4): the messages a compaction keeps verbatim at the end. */
  keepRecent?: number;
}

/** The parts in the order the view lists them (every kind is present, 0 when empty, so shares are comparable). */
export const CONTEXT_PART_KINDS: readonly ContextPartKind[] = [
  'system',
  'instructions',
  'memory',
  'skills',
  'tools:builtin',
  'tools:plugins',
  'tools:bridge',
  'tools:mcp',
  'history',
  'images',
];

interface ContextMark {
  kind?: unknown;
  items?: Record<string, string>;
  upsert?: Record<string, string>;
  remove?: string[];
}

/** How a snapshot or delta splits between memory and skills: by the bytes of its entries of each kind. */
function memoryShare(meta: ContextMark): number {
  const encoder = new TextEncoder();
  let memory = 0;
  let skills = 0;
  const count = (id: string, text: string) => {
    const n = encoder.encode(id).length + encoder.encode(text).length;
    if (id.startsWith('skill/')) skills += n;
    else memory += n;
  };
  for (const [id, text] of Object.entries(meta.items ?? {})) count(id, text);
  for (const [id, text] of Object.entries(meta.upsert ?? {})) count(id, text);
  for (const id of meta.remove ?? []) count(id, '');
  // A message with no entries ("no memory and no skills") is the memory module's header: count it there.
  return memory + skills === 0 ? 1 : memory / (memory + skills);
}

export function contextBreakdown(input: BreakdownInput): ContextBreakdown {
  const settings: BudgetSettings = input.budget ?? { ...DEFAULT_BUDGET, context_window: 0, max_tokens: 0 };
  const textOnly: BudgetSettings = { ...settings, image_tokens: 0 };
  const parts = new Map<ContextPartKind, { tokens: number; items: number }>(
    CONTEXT_PART_KINDS.map((k) => [k, { tokens: 0, items: 0 }]),
  );
  const add = (kind: ContextPartKind, tokens: number, items: number) => {
    const p = parts.get(kind)!;
    p.tokens += tokens;
    p.items += items;
  };

  for (const m of input.history) {
    const text = estimateBytes([m], textOnly);
    const images = estimateBytes([m], { ...settings, image_tokens: 1 }) - text;
    if (images > 0) add('images', images * settings.image_tokens, images);
    const kind = m.role === 'user' ? m._meta?.kind : undefined;
    if (m.role === 'system') add('system', text, 1);
    else if (isProjectInstructions(m)) add('instructions', text, 1);
    else if (m.role === 'user' && (kind === 'context_snapshot' || kind === 'context_delta')) {
      const memory = Math.round(text * memoryShare(m._meta as ContextMark));
      add('memory', memory, 0);
      add('skills', text - memory, 0);
    } else add('history', text, 1);
  }
  // Items of memory and skills: the entries the model knows now (the last snapshot with its deltas applied).
  for (const id of Object.keys(knownContext(input.history) ?? {}))
    add(id.startsWith('skill/') ? 'skills' : 'memory', 0, 1);

  const bySource = new Map<ToolSource, ToolSchema[]>();
  for (const t of input.tools) bySource.set(t.source, [...(bySource.get(t.source) ?? []), t.schema]);
  for (const [source, schemas] of bySource)
    add(`tools:${source}`, estimateBudget(settings, [], schemas, 0, null).estimate, schemas.length);

  const meter = createContextMeter({ budget: input.budget, tools: input.tools.map((t) => t.schema) });
  const size = meter.reset(input.history);

  const cut = planCut(input.history, input.keepRecent ?? DEFAULT_COMPACT_CONFIG.keep_recent);
  let would_fold: ContextBreakdown['would_fold'] = null;
  if (cut !== null) {
    const folded = input.history.slice(headLength(input.history), cut);
    would_fold = {
      messages: folded.length,
      tool_results: folded.filter((m) => m.role === 'tool').length,
      tokens: estimateBytes(folded, settings),
    };
  }
  return { size, parts: CONTEXT_PART_KINDS.map((kind) => ({ kind, ...parts.get(kind)! })), would_fold };
}
