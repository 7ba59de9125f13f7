// A fenced code block of a message: language label, "Copy code", highlighting and, past COLLAPSE_LINES, a collapsed
// view with "Show all N lines". The code is shown as plain text first and coloured when the highlighter answers:
// the same characters in the same font, so nothing moves. While the fence is still streaming it stays plain (one
// highlight per block, not one per delta).
import './code-block.css';
import { createEffect, createMemo, createSignal, on, Show } from 'solid-js';
import { highlight, highlightedBefore, type HighlightedHtml } from '../highlight/highlighter';
import type { ChatTranslate } from './chat-i18n';
import { CopyButton } from './copy-button';

/** Blocks with more lines collapse (the first lines stay visible, the rest behind "Show all N lines"). */
export const COLLAPSE_LINES = 30;
const MAX_LABEL = 24;

export interface CodeBlockData {
  label: string;
  code: string;
  closed: boolean;
}

export function CodeBlock(props: { block: CodeBlockData; ct: ChatTranslate }) {
  const ct = props.ct;
  const lines = createMemo(() => lineCount(props.block.code));
  const long = () => lines() > COLLAPSE_LINES;
  const [expanded, setExpanded] = createSignal(false);
  const [coloured, setColoured] = createSignal<HighlightedHtml | null>(null);
  createEffect(
    on([() => props.block.code, () => props.block.label, () => props.block.closed], ([code, label, closed]) => {
      setColoured(closed ? highlightedBefore(code, label) : null);
      if (!closed || coloured()) return;
      void highlight(code, label).then((result) => {
        // A later version of the block may have arrived meanwhile; only its own highlighting applies.
        if (result && props.block.code === code && props.block.label === label) setColoured(result);
      });
    }),
  );
  const label = () => {
    const l = props.block.label.split(/\s/, 1)[0] ?? '';
    return l === '' ? ct('code.plain') : l.length > MAX_LABEL ? `${l.slice(0, MAX_LABEL - 1)}…` : l;
  };
  return (
    <figure
      class="code-block"
      classList={{ collapsed: long() && !expanded() }}
      data-lang={coloured()?.lang}
      data-highlighted={coloured() ? 'true' : undefined}
    >
      <figcaption class="code-head">
        <span class="code-lang">{label()}</span>
        <CopyButton
          class="code-copy"
          text={() => props.block.code}
          label={ct('code.copy')}
          copied={ct('code.copied')}
          failed={ct('msg.copyFailed')}
          showLabel
        />
      </figcaption>
      <pre class="code-pre">
        <Show when={coloured()} fallback={<code>{props.block.code}</code>}>
          {(c) => <code class="hl" innerHTML={c().html} />}
        </Show>
      </pre>
      <Show when={long()}>
        <button type="button" class="code-more" aria-expanded={expanded()} onClick={() => setExpanded(!expanded())}>
          {expanded() ? ct('code.showLess') : ct('code.showAll', { n: lines() })}
        </button>
      </Show>
    </figure>
  );
}

function lineCount(code: string): number {
  let n = 1;
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) n++;
  return n;
}
