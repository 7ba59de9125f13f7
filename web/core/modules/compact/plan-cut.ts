// The default cut (seed 000 §7): keep at least the last `keepRecent` messages, move the cut earlier so a tool-call
// batch is never separated from its results (or from the images a call returned), and keep the system prompt.
// null when no safe old prefix exists: the default compactor then does not compact, and the budget still blocks
// an over-budget request.
import type { Message } from '../../providers/types';

const belongsToBatch = (m: Message | undefined): boolean => m?.role === 'tool' || (m?.role === 'user' && m._meta?.kind === 'tool_images');

export function planCut(history: readonly Message[], keepRecent: number): number | null {
  const first = history[0]?.role === 'system' ? 1 : 0;
  let cut = history.length - keepRecent;
  while (cut > first && belongsToBatch(history[cut])) cut--;
  // Nothing old enough to summarise, or only an earlier summary: compaction could not shrink anything.
  if (cut <= first) return null;
  const prefix = history.slice(first, cut);
  if (prefix.every((m) => m.role === 'user' && m._meta?.kind === 'compaction_summary')) return null;
  return cut;
}
