// The merge view's API (no CodeMirror types): the Changes panel and the approval card use it; index.ts loads the
// CodeMirror implementation on first use.
import type { LineHunk } from './hunks';

export type MergeMode = 'side-by-side' | 'inline';

/** One changed hunk as the view shows it. */
export interface MergeHunk extends LineHunk {
  /** 0-based, in document order. */
  index: number;
  /** From the hunk's texts (see hunkKey): stays the same when another hunk is reverted. */
  key: string;
}

export interface MergeLabels {
  revert: string;
  keep: string;
  kept: string;
  /** "change 1 of 3": names a hunk's buttons for screen readers (the visible text is just revert/keep). */
  hunk: (index: number, count: number) => string;
}

export interface MergeViewOptions {
  /** The version before (left, or the deleted lines inline); null: the file did not exist. */
  a: string | null;
  /** The version now (right, or the editor inline); null: the file does not exist. */
  b: string | null;
  /** Picks the syntax highlighting by extension. */
  path: string;
  mode: MergeMode;
  /** 'b': the person may edit B (read `content()` or `onChange`). Otherwise both sides are read-only. */
  editable?: 'b';
  /** Default: the page's effective colour scheme. */
  dark?: boolean;
  onChange?: (b: string) => void;
  /**
   * Shows Revert / Keep on each hunk. `content` is B with that hunk put back to A (revertHunk): the caller writes it
   * (the view does not change itself; the caller remounts or calls `update` once the write is done).
   */
  revertChunk?: (hunk: MergeHunk, content: string) => void;
  keepChunk?: (hunk: MergeHunk) => void;
  /** Hunks already kept show "Kept" instead of Keep. */
  isKept?: (key: string) => boolean;
  labels?: MergeLabels;
  /** CodeMirror's "$ unchanged lines" (a collapsed stretch) in the page's language; $ is the number. */
  unchangedLines?: string;
}

export interface MergeHandle {
  destroy(): void;
  setMode(mode: MergeMode): void;
  setDark(dark: boolean): void;
  /** B as it is now in the view (with the person's edits when editable), line endings as in B. */
  content(): string;
  hunks(): MergeHunk[];
  /** Re-reads `isKept` (after a Keep) without rebuilding the view. */
  refresh(): void;
}
