// Pieces of one chat item: Markdown text (block by block, code blocks with highlighting), collapsible thinking,
// images. Tool calls are in tool-card.tsx.
import './messages.css';
import { createEffect, createMemo, createSignal, For, Index, Match, Switch } from 'solid-js';
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
  const [shownChars, setShownChars] = createSignal(CHARS_AT_ONCE);
  let queued = false;
  createEffect(() => {
    if (props.text.length <= shownChars() || queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      setShownChars((n) => n + CHARS_PER_FRAME);
    });
  });
  const blocks = createMemo(() => splitter.update(props.text.length > shownChars() ? props.text.slice(0, shownChars()) : props.text));
  const ct = (...args: Parameters<ChatTranslate>) => (props.ct ?? pageTranslator)(...args);
  return (
    <div class="md">
      <Index each={blocks()}>{(block) => <Block block={block()} ct={ct} />}</Index>
    </div>
  );
}

const CHARS_AT_ONCE = 6_000;
const CHARS_PER_FRAME = 3_000;

const pageTranslator = chatTranslator(() => (globalThis.document?.documentElement.lang.startsWith('zh') ? 'zh' : 'en'));

function Block(props: { block: MdBlock; ct: ChatTranslate }) {
  return (
    <Switch>
      <Match when={codeOf(props.block)}>{(code) => <CodeBlock block={code()} ct={props.ct} />}</Match>
      <Match when={props.block.kind === 'md'}>
        <div class="md-block" innerHTML={mdHtml(props.block)} />
      </Match>
    </Switch>
  );
}

const codeOf = (block: MdBlock) => (block.kind === 'code' ? block : undefined);
const mdHtml = (block: MdBlock) => (block.kind === 'md' && block.tokens ? renderMarkdownTokens(block.tokens, block.raw) : renderMarkdown(block.raw));

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
