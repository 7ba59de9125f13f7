// The approval card's review of a write/edit (issue 16): the proposed change as the unified diff (the default: quick
// to read, on a phone too), or in the shared merge view (side by side / inline, word highlights, syntax), and "Edit
// before allowing", which makes the proposed side editable. The card sends the edited content with Allow; the tool
// writes it and tells the model (web/core/tools/builtin/CONTEXT.md). CodeMirror loads only when the person opens a
// merge view (web/ui/merge is a dynamic import).
import { batch, createEffect, createSignal, For, on, onCleanup, Show, type JSX } from 'solid-js';
import { mountMergeView, type MergeHandle, type MergeMode } from '../merge';
import type { ChatKey, ChatTranslate } from './chat-i18n';

type View = 'diff' | MergeMode;

const VIEWS: Array<{ view: View; label: ChatKey }> = [
  { view: 'diff', label: 'review.diff' },
  { view: 'side-by-side', label: 'review.sideBySide' },
  { view: 'inline', label: 'review.inline' },
];

/** Side by side needs room for two columns of code; a phone gets the inline view. */
const roomyMode = (): MergeMode =>
  typeof matchMedia === 'function' && matchMedia('(max-width: 640px)').matches ? 'inline' : 'side-by-side';

export function ApprovalReview(props: {
  review: { before: string | null; after: string };
  path: string;
  ct: ChatTranslate;
  /** The unified diff, shown in the 'diff' view and whenever the editor cannot load. */
  diff: JSX.Element;
  /** The person's version while they edit (null: they allow the proposal as it is). */
  onContent: (content: string | null) => void;
}) {
  const ct = props.ct;
  const [view, setView] = createSignal<View>('diff');
  const [editing, setEditing] = createSignal(false);
  const [content, setContent] = createSignal(props.review.after);
  const [failed, setFailed] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const edited = () => editing() && content() !== props.review.after;
  let host: HTMLDivElement | undefined;
  let handle: { view: MergeHandle; el: HTMLElement } | null = null;
  let mounts = 0;

  const unmount = () => {
    handle?.view.destroy();
    handle?.el.remove();
    handle = null;
  };
  onCleanup(unmount);

  // (Re)mounted when the view opens or editing starts/stops (the API has no switch for editability); a mode change
  // on a mounted view only switches its mode.
  createEffect(
    on([view, editing], ([v, edit], previous) => {
      if (v === 'diff') return unmount();
      if (handle && previous && previous[1] === edit) return handle.view.setMode(v);
      unmount();
      const mine = ++mounts;
      setLoading(true);
      // Each mount gets its own element: a superseded mount that resolves late removes only what it made.
      const el = document.createElement('div');
      host!.append(el);
      mountMergeView(el, {
        a: props.review.before,
        b: content(),
        path: props.path,
        mode: v,
        ...(edit
          ? {
              editable: 'b' as const,
              onChange: (b: string) => {
                setContent(b);
                props.onContent(b === props.review.after ? null : b);
              },
            }
          : {}),
      }).then(
        (view) => {
          if (mine !== mounts) return (view.destroy(), el.remove());
          handle = { view, el };
          setLoading(false);
        },
        (error: unknown) => {
          el.remove();
          if (mine !== mounts) return;
          setLoading(false);
          setFailed(error instanceof Error ? error.message : String(error));
          setView('diff');
        },
      );
    }),
  );

  function toggleEditing() {
    if (editing()) {
      // Discarding goes back to the proposal as the agent sent it.
      setContent(props.review.after);
      props.onContent(null);
      setEditing(false);
      return;
    }
    batch(() => {
      if (view() === 'diff') setView(roomyMode());
      setEditing(true);
    });
  }

  return (
    <div class="approval-review" data-testid="approval-review">
      <div class="approval-review-bar">
        <div class="review-views" role="group" aria-label={ct('review.views')}>
          <For each={VIEWS}>
            {(v) => (
              <button
                type="button"
                class="review-view"
                aria-pressed={view() === v.view}
                // While editing, the plain diff would hide the editor (and show the agent's proposal, not the edit).
                disabled={v.view === 'diff' && editing()}
                onClick={() => {
                  setFailed(null);
                  setView(v.view);
                }}
              >
                {ct(v.label)}
              </button>
            )}
          </For>
        </div>
        <button type="button" class="button small" aria-pressed={editing()} onClick={toggleEditing}>
          {editing() ? ct('review.discard') : ct('review.edit')}
        </button>
      </div>
      <Show when={view() === 'diff'}>{props.diff}</Show>
      <Show when={failed()}>{(m) => <p class="field-hint">{ct('review.failed', { message: m() })}</p>}</Show>
      <Show when={loading()}>
        <p class="field-hint" role="status">
          {ct('review.loading')}
        </p>
      </Show>
      <div
        ref={(el) => (host = el)}
        class="approval-merge"
        classList={{ hidden: view() === 'diff' }}
        role="group"
        aria-label={ct('review.editor', { path: props.path })}
        // Esc in the editor must not reach the page's "Esc stops the turn": that would deny the call and drop the edit.
        onKeyDown={(e) => e.key === 'Escape' && e.preventDefault()}
      />
      <Show when={editing()}>
        <p class="field-hint approval-review-note" role="status">
          {edited() ? ct('review.edited') : ct('review.editing')}
        </p>
      </Show>
    </div>
  );
}
