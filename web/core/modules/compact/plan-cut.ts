// The default cut (seed 000 §7): keep at least the last `keepRecent` messages, move the cut earlier so a tool-call
// batch is never separated from its results (or from the images a call returned), and keep the fixed head (system
// prompt, AGENTS.md instructions).
// null when no safe old prefix exists: the default compactor then does not compact, and the budget still blocks
// an over-budget request.
import type { Message } from '../../contracts';
import { isProjectInstructions } from '../prompts';

const belongsToBatch = (m: Message | undefined): boolean =>
  m?.role === 'tool' || (m?.role === 'user' && m._meta?.kind === 'tool_images');

/** The session's fixed head, never compacted: the system prompt, then the AGENTS.md project instructions. */
export function headLength(history: readonly Message[]): number {
  if (history[0]?.role !== 'system') return 0;
  return history[1] && isProjectInstructions(history[1]) ? 2 : 1;
}

export function planCut(history: readonly Message[], keepRecent: number): number | null {
  const first = headLength(history);
  let cut = history.length - keepRecent;
  while (cut > first && belongsToBatch(history[cut])) cut--;
  // Nothing old enough to summarise, or only an earlier summary: compaction could not shrink anything.
  if (cut <= first) return null;
  const prefix = history.slice(first, cut);
  if (prefix.every((m) => m.role === 'user' && m._meta?.kind === 'compaction_summary')) return null;
  return cut;
}
