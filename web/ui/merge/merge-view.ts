// The CodeMirror 6 side of the merge view (@codemirror/merge): loaded only through index.ts's dynamic import, so the
// first screen carries none of it. Side-by-side is a MergeView (two editors, aligned), inline a single editor with
// unifiedMergeView (deleted lines shown above the new ones). Word-level highlights are the package's own
// (highlightChanges); syntax colours come from classHighlighter (tok-* classes) styled in merge.css with
// light-dark(), so they follow the app's theme like the rest of the page.
//
// CodeMirror injects its styles through style-mod, which in a document uses a <style> element: the production CSP
// (style-src 'self') blocks that. In a shadow root it uses constructed stylesheets (adoptedStyleSheets), which the CSP
// does not govern, so the view lives in a shadow root of the host, with merge.css adopted beside CodeMirror's
// sheets. The page's custom properties (colours, fonts) and color-scheme inherit into it.
//
// Per-hunk Revert / Keep are block widgets above each chunk of B, computed from the package's chunks. The view never
// applies a revert itself: it hands the caller B with that hunk put back (hunks.ts, on the raw texts, so CRLF and a
// missing final newline survive) and the caller writes it and remounts.
import { Compartment, EditorState, StateEffect, StateField, Text, type Extension } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, lineNumbers, type DecorationSet } from '@codemirror/view';
import { MergeView, getChunks, getOriginalDoc, unifiedMergeView } from '@codemirror/merge';
import { syntaxHighlighting } from '@codemirror/language';
import { classHighlighter } from '@lezer/highlight';
import { hunkKey, lineRange, revertHunk } from './hunks';
import { languageFor } from './languages';
import type { MergeHandle, MergeHunk, MergeMode, MergeViewOptions } from './types';
import mergeCss from './merge.css?inline';

const refresh = StateEffect.define<null>();

/** A pure CRLF text keeps CRLF in the editor's `toString()`; anything else is split on every line break. */
function separatorOf(text: string): Extension {
  return /\r\n/.test(text) && !/\r(?!\n)|(?<!\r)\n/.test(text) ? EditorState.lineSeparator.of('\r\n') : [];
}

const docOf = (text: string) => Text.of(text.split(/\r\n|\r|\n/));

class HunkBar extends WidgetType {
  constructor(
    readonly hunk: MergeHunk,
    readonly count: number,
    readonly kept: boolean,
    readonly o: MergeViewOptions,
    readonly content: () => string,
  ) {
    super();
  }
  override eq(other: HunkBar) {
    return (
      other.hunk.key === this.hunk.key &&
      other.hunk.index === this.hunk.index &&
      other.count === this.count &&
      other.kept === this.kept
    );
  }
  toDOM() {
    const labels = this.o.labels ?? {
      revert: 'Revert',
      keep: 'Keep',
      kept: 'Kept',
      hunk: (i: number, n: number) => `change ${i + 1} of ${n}`,
    };
    const bar = document.createElement('div');
    bar.className = 'merge-hunk-bar';
    bar.classList.toggle('kept', this.kept);
    const which = labels.hunk(this.hunk.index, this.count);
    const button = (text: string, cls: string, run: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `merge-hunk-button ${cls}`;
      b.textContent = text;
      b.setAttribute('aria-label', `${text}: ${which}`);
      b.addEventListener('click', (e) => (e.preventDefault(), run()));
      bar.append(b);
    };
    if (this.o.revertChunk) {
      button(labels.revert, 'revert', () =>
        this.o.revertChunk?.(this.hunk, revertHunk(this.o.a ?? '', this.content(), this.hunk)),
      );
    }
    if (this.kept) {
      const s = document.createElement('span');
      s.className = 'merge-hunk-kept';
      s.textContent = labels.kept;
      bar.append(s);
    } else if (this.o.keepChunk) {
      button(labels.keep, 'keep', () => this.o.keepChunk?.(this.hunk));
    }
    return bar;
  }
  override ignoreEvent() {
    return true;
  }
}

/** The hunks of the editor showing B, as line ranges of the raw texts. */
function hunksOf(state: EditorState, a: Text | null, aText: string, bText: string): MergeHunk[] {
  const found = getChunks(state);
  if (!found) return [];
  const docA = a ?? getOriginalDoc(state);
  return found.chunks.map((c, index) => {
    const lines = { a: lineRange(docA, c.fromA, c.toA), b: lineRange(state.doc, c.fromB, c.toB) };
    return { ...lines, index, key: hunkKey(aText, bText, lines) };
  });
}

function hunkBars(o: MergeViewOptions, sideA: () => Text | null, content: () => string): Extension {
  if (!o.revertChunk && !o.keepChunk) return [];
  const build = (state: EditorState): DecorationSet => {
    const found = getChunks(state);
    if (!found) return Decoration.none;
    const text = content();
    const hunks = hunksOf(state, sideA(), o.a ?? '', text);
    return Decoration.set(
      found.chunks.map((c, i) => {
        const at = Math.min(c.fromB, state.doc.length);
        const widget = new HunkBar(hunks[i]!, hunks.length, o.isKept?.(hunks[i]!.key) ?? false, o, content);
        return Decoration.widget({ widget, block: true, side: -2 }).range(state.doc.lineAt(at).from);
      }),
      true,
    );
  };
  return StateField.define<DecorationSet>({
    create: (state) => build(state),
    update(deco, tr) {
      // The chunks are computed by the merge extension after the editor is created, so rebuild on every
      // transaction that may change them (documents, the merge view's own effects) or on refresh().
      const before = getChunks(tr.startState)?.chunks;
      const after = getChunks(tr.state)?.chunks;
      if (before !== after || tr.docChanged || tr.effects.some((e) => e.is(refresh))) return build(tr.state);
      return deco;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
}

export function pageIsDark(): boolean {
  const pinned = document.documentElement.dataset.theme;
  if (pinned === 'dark' || pinned === 'light') return pinned === 'dark';
  return matchMedia('(prefers-color-scheme: dark)').matches;
}

let sheet: CSSStyleSheet | null = null;

function shadowOf(host: HTMLElement): { shadow: ShadowRoot; root: HTMLElement } {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(mergeCss);
  }
  if (!shadow.adoptedStyleSheets.includes(sheet)) shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
  const root = document.createElement('div');
  root.className = 'merge-root';
  shadow.replaceChildren(root);
  return { shadow, root };
}

export async function createMergeView(host: HTMLElement, o: MergeViewOptions): Promise<MergeHandle> {
  const language = await languageFor(o.path);
  const theme = new Compartment();
  let dark = o.dark ?? pageIsDark();
  let mode = o.mode;
  let b = o.b ?? '';
  let merge: MergeView | null = null;
  let single: EditorView | null = null;
  const editorB = () => (merge ? merge.b : single!);
  const content = () => {
    // The editor's text only when the person can change it: a read-only B is the caller's raw string (exact bytes).
    if (o.editable === 'b') b = editorB().state.sliceDoc();
    return b;
  };
  const common = (text: string, editable: boolean): Extension => [
    lineNumbers(),
    EditorView.lineWrapping,
    syntaxHighlighting(classHighlighter),
    language ?? [],
    separatorOf(text),
    theme.of(EditorView.darkTheme.of(dark)),
    EditorState.readOnly.of(!editable),
    EditorView.editable.of(editable),
    o.unchangedLines ? EditorState.phrases.of({ '$ unchanged lines': o.unchangedLines }) : [],
  ];
  const listen = EditorView.updateListener.of((u) => {
    if (u.docChanged && o.editable === 'b') o.onChange?.(content());
  });

  function mount() {
    const { shadow, root } = shadowOf(host);
    host.classList.add('merge-host');
    const editable = o.editable === 'b';
    const docA = docOf(o.a ?? '');
    if (mode === 'side-by-side') {
      merge = new MergeView({
        parent: root,
        root: shadow,
        a: { doc: docA, extensions: [common(o.a ?? '', false)] },
        b: {
          doc: docOf(b),
          extensions: [common(b, editable), listen, hunkBars(o, () => merge?.a.state.doc ?? docA, content)],
        },
        highlightChanges: true,
        gutter: true,
        collapseUnchanged: { margin: 3, minSize: 6 },
      });
    } else {
      single = new EditorView({
        parent: root,
        root: shadow,
        state: EditorState.create({
          doc: docOf(b),
          extensions: [
            common(b, editable),
            listen,
            unifiedMergeView({
              original: docA,
              mergeControls: false,
              highlightChanges: true,
              gutter: true,
              collapseUnchanged: { margin: 3, minSize: 6 },
            }),
            hunkBars(o, () => null, content),
          ],
        }),
      });
    }
    host.dataset.mode = mode;
  }

  function destroy() {
    content();
    merge?.destroy();
    single?.destroy();
    merge = single = null;
  }

  mount();
  return {
    destroy() {
      destroy();
      host.shadowRoot?.replaceChildren();
    },
    setMode(next) {
      if (next === mode) return;
      destroy();
      mode = next;
      mount();
    },
    setDark(next) {
      dark = next;
      for (const view of merge ? [merge.a, merge.b] : [single!])
        view.dispatch({ effects: theme.reconfigure(EditorView.darkTheme.of(dark)) });
    },
    content,
    hunks: () => hunksOf(editorB().state, merge ? merge.a.state.doc : null, o.a ?? '', content()),
    refresh: () => editorB().dispatch({ effects: refresh.of(null) }),
  };
}

export type { MergeMode };
