// A tool result as the log keeps it, whole: the full text when the model saw only a preview and a reference, or a
// result the context budget cut (`_full_output`), else what the model saw. A long one is shown a page at a time ("Show more"), so a result of
// megabytes never lands in the DOM at once; earlier pages keep their text nodes when the next one is added.
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import { formatSize, pageEnd, previewFigures } from './tool-state';

export function FullResult(props: {
  output: string;
  full?: string | undefined;
  error: boolean;
  label: string;
  ct: ChatTranslate;
}) {
  const ct = props.ct;
  const [count, setCount] = createSignal(1);
  const shown = createMemo(() => {
    const text = props.full ?? props.output;
    const pages: string[] = [];
    let from = 0;
    while (pages.length < count() && from < text.length) {
      const end = pageEnd(text, from);
      pages.push(text.slice(from, end));
      from = end;
    }
    return { pages, left: text.length - from };
  });
  const figures = () => (props.full !== undefined ? previewFigures(props.output) : null);
  const number = (n: number) => n.toLocaleString('en-US');
  const note = () => {
    const f = figures();
    if (f?.kind === 'reference') return ct('full.preview', { shown: number(f.shown), total: number(f.total) });
    if (f?.kind === 'budget') return ct('full.budget', { left: number(f.left), total: number(f.total) });
    return ct('full.previewPlain');
  };
  return (
    <>
      <Show when={props.full !== undefined}>
        <p class="tool-preview-note">{note()}</p>
      </Show>
      <pre class="code tool-output" classList={{ 'tool-output-error': props.error }} aria-label={props.label}>
        <For each={shown().pages}>{(page) => page}</For>
      </pre>
      <Show when={shown().left > 0}>
        <button type="button" class="button small ghost tool-more" onClick={() => setCount((n) => n + 1)}>
          {ct('full.more', { left: formatSize(shown().left) })}
        </button>
      </Show>
    </>
  );
}
