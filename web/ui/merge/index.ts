// The shared merge view (issue 16): a diff of two versions of a file in CodeMirror 6, side by side or inline, with
// per-hunk Revert / Keep. The Changes panel and the approval card use it. CodeMirror is loaded on the first mount
// (a dynamic import), never with the first screen.
import type { MergeHandle, MergeViewOptions } from './types';

export type { MergeHandle, MergeHunk, MergeLabels, MergeMode, MergeViewOptions } from './types';
export { hunkKey, revertHunk, splitLines, type LineHunk } from './hunks';

/** Mounts a merge view into `el` (replacing its children). Rejects only if the CodeMirror chunk cannot load. */
export async function mountMergeView(el: HTMLElement, options: MergeViewOptions): Promise<MergeHandle> {
  const { createMergeView } = await import('./merge-view');
  return createMergeView(el, options);
}
