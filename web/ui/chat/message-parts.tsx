// Pieces of one chat item: Markdown text (block by block, code blocks with highlighting), collapsible thinking,
// images. Tool calls are in tool-card.tsx.
import './messages.css';
import { createContext, createEffect, createMemo, createSignal, For, Index, Match, Switch, untrack, useContext } from 'solid-js';
import { chatTranslator, type ChatTranslate } from './chat-i18n';
import { CodeBlock } from './code-block';
import { renderMarkdown, renderMarkdownTokens } from './markdown';
import { createBlockSplitter, type MdBlock } from './markdown-blocks';

export { ToolCall } from './tool-card';

/**
 * Model text as Markdown. Streaming re-renders only the last block: finished blocks are the same objects from one
 * update to the next (markdown-blocks.ts), and `Index` keeps their DOM. Without `ct` (a caller that has none), the
 * strings follow the page's language.
 */
export function Markdown(props: { text: string; ct?: ChatTranslate }) {
  const splitter = createBlockSplitter();
  // A lot of new text at once (a provider that sends a long answer in one burst, a long saved answer opening) is
  // lexed and rendered a slice per frame, as if it streamed, so the page never stops for the whole lot: measured on
  // 200 KB arriving at once, one 0.9 s task before, none over ~85 ms after (2-core machine).
  // Text this page just showed whole (the streamed answer becoming the saved one) shows whole at once again: its
  // blocks' HTML is cached, and restarting the slices would shrink the answer and regrow it under the reader.
  const [shownChars, setShownChars] = createSignal(shownWhole.has(props.text) ? Infinity : CHARS_AT_ONCE);
  const grew = useContext(MarkdownGrowth);
  let queued = false;
  createEffect(() => {
    if (props.text.length <= shownChars()) return remember(props.text);
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      setShownChars((n) => n + CHARS_PER_FRAME);
      grew?.();
    });
  });
  const blocks = createMemo(() => splitter.update(props.text.length > shownChars() ? props.text.slice(0, shownChars()) : props.text));
  const ct = (...args: Parameters<ChatTranslate>) => (props.ct ?? pageTranslator)(...args);
  return (
    <div class="md">
      <Index each={blocks()}>{(block, i) => <Block block={block()} last={i === blocks().length - 1} ct={ct} />}</Index>
    </div>
  );
}

/** Called after each slice of a long text is added (the chat keeps following the end when the person was there). */
export const MarkdownGrowth = createContext<() => void>();

/** The last few texts shown whole (compared by value; a handful of long strings at most). */
const shownWhole = new Set<string>();
function remember(text: string) {
  if (text.length < CHARS_AT_ONCE || shownWhole.has(text)) return;
  shownWhole.add(text);
  if (shownWhole.size > 8) shownWhole.delete(shownWhole.values().next().value!);
}

const CHARS_AT_ONCE = 6_000;
const CHARS_PER_FRAME = 3_000;

const pageTranslator = chatTranslator(() => (globalThis.document?.documentElement.lang.startsWith('zh') ? 'zh' : 'en'));

function Block(props: { block: MdBlock; last: boolean; ct: ChatTranslate }) {
  return (
    <Switch>
      <Match when={codeOf(props.block)}>{(code) => <CodeBlock block={code()} ct={props.ct} />}</Match>
      <Match when={props.block.kind === 'md'}>
        {/* `last` is read untracked: a block that stops being the last one keeps its DOM (same HTML). */}
        <div class="md-block" innerHTML={mdHtml(props.block, !untrack(() => props.last))} />
      </Match>
    </Switch>
  );
}

const codeOf = (block: MdBlock) => (block.kind === 'code' ? block : undefined);
// The last block may still be growing (every frame of it would fill the cache), so only earlier blocks are cached.
const mdHtml = (block: MdBlock, cache: boolean) => (block.kind === 'md' && block.tokens ? renderMarkdownTokens(block.tokens, block.raw, cache) : renderMarkdown(block.raw, cache));

export function Thinking(props: { text: string; live?: boolean; ct: ChatTranslate }) {
  return (
    <details class="thinking" open={props.live}>
      <summary>{props.live ? props.ct('thinkingLive') : props.ct('thinking')}</summary>
      <div class="thinking-text">{props.text}</div>
    </details>
  );
}

export function Images(props: { urls: string[]; label: string }) {
  return (
    <div class="chat-images">
      <For each={props.urls}>{(url) => <img src={url} alt={props.label} loading="lazy" />}</For>
    </div>
  );
}
