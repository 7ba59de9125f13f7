// The merge view in Chromium: per-hunk buttons name their hunk, Revert hands back the file with only that hunk put
// back (CRLF kept), Keep is reported and shown as Kept after refresh, both modes show the same hunks, an editable
// B reports the person's text, and TypeScript gets syntax classes.
import { afterEach, describe, expect, it } from 'vitest';
import '@codemirror/lang-javascript';
import { createMergeView } from './merge-view';
import type { MergeHandle, MergeHunk } from './types';

const before =
  'const one = 1;\r\nconst two = 2;\r\nconst three = 3;\r\nconst four = 4;\r\nconst five = 5;\r\nconst six = 6;\r\nconst seven = 7;\r\nconst eight = 8;\r\n';
const after = before.replace('two = 2', 'two = 22').replace('eight = 8', 'eight = 88');

let handle: MergeHandle | null = null;
let host: HTMLElement;
afterEach(() => {
  handle?.destroy();
  host?.remove();
});
const mount = async (o: Partial<Parameters<typeof createMergeView>[1]> = {}) => {
  host = document.createElement('div');
  document.body.append(host);
  handle = await createMergeView(host, { a: before, b: after, path: 'src/n.ts', mode: 'side-by-side', ...o });
  await new Promise((r) => setTimeout(r, 50));
  return handle;
};
const inside = () => host.shadowRoot!;
const buttons = (name: string) =>
  [...inside().querySelectorAll('button')].filter((b) => b.getAttribute('aria-label')?.startsWith(name));

describe('merge view', () => {
  it('reverts one hunk of two through the caller, keeping CRLF and the other hunk', async () => {
    const reverted: Array<{ hunk: MergeHunk; content: string }> = [];
    await mount({ revertChunk: (hunk, content) => reverted.push({ hunk, content }) });
    const revert = buttons('Revert');
    expect(revert.map((b) => b.getAttribute('aria-label'))).toEqual(['Revert: change 1 of 2', 'Revert: change 2 of 2']);
    revert[1]!.click();
    expect(reverted[0]!.hunk.index).toBe(1);
    expect(reverted[0]!.content).toBe(before.replace('two = 2', 'two = 22'));
    // The view itself does not change: the caller writes and remounts.
    expect(handle!.content()).toBe(after);
  });

  it('shows the same hunks inline and marks a kept one after refresh', async () => {
    const kept = new Set<string>();
    const h = await mount({
      mode: 'inline',
      keepChunk: (hunk) => (kept.add(hunk.key), h.refresh()),
      isKept: (k) => kept.has(k),
    });
    expect(h.hunks().map((x) => x.b)).toEqual([
      [1, 2],
      [7, 8],
    ]);
    buttons('Keep')[0]!.click();
    await new Promise((r) => setTimeout(r, 20));
    expect(buttons('Keep')).toHaveLength(1);
    expect(inside().querySelectorAll('.merge-hunk-kept')).toHaveLength(1);
    h.setMode('side-by-side');
    expect(inside().querySelector('.cm-mergeView')).not.toBeNull();
    expect(inside().querySelectorAll('.merge-hunk-kept')).toHaveLength(1);
  });

  it('reports what the person types into an editable B, with its CRLF line endings', async () => {
    const seen: string[] = [];
    const h = await mount({ editable: 'b', onChange: (b) => seen.push(b) });
    const view = inside().querySelectorAll('.cm-content')[1] as HTMLElement;
    expect(view.contentEditable).toBe('true');
    expect(inside().querySelectorAll('.cm-content')[0]!.getAttribute('contenteditable')).toBe('false');
    // Typing through the DOM is flaky headless; a transaction is what a keystroke becomes.
    const { EditorView } = await import('@codemirror/view');
    EditorView.findFromDOM(view)!.dispatch({ changes: { from: 0, insert: '// hi\r\n' } });
    expect(h.content()).toBe(`// hi\r\n${after}`);
    expect(seen.at(-1)).toBe(h.content());
  });

  it('colours TypeScript by its extension', async () => {
    await mount();
    await new Promise((r) => setTimeout(r, 200));
    expect(inside().querySelector('.tok-keyword')?.textContent).toBe('const');
  });
});

describe('merge view styles', () => {
  it('gets CodeMirror’s styles without a <style> element (the CSP allows none), so the two sides sit side by side', async () => {
    const before = document.querySelectorAll('style').length;
    host = document.createElement('div');
    document.body.append(host);
    handle = await createMergeView(host, { a: 'x\n', b: 'y\n', path: 'a.txt', mode: 'side-by-side' });
    expect(document.querySelectorAll('style').length).toBe(before);
    const editors = host.shadowRoot!.querySelector('.cm-mergeViewEditors')!;
    expect(getComputedStyle(editors).display).toBe('flex');
  });
});
