// Pieces of one chat item: Markdown text (block by block, code blocks with highlighting), collapsible thinking,
// images. Tool calls are in tool-card.tsx.
import './messages.css';
import {
  createContext,
  createEffect,
  createMemo,
  createSignal,
  For,
  Index,
  Match,
  onCleanup,
  Show,
  Switch,
  untrack,
  useContext,
  type JSX,
} from 'solid-js';
import { chatTranslator, type ChatTranslate } from './chat-i18n';
import { CodeBlock } from './code-block';
import { renderMarkdown, renderMarkdownTokens } from './markdown';
import { createBlockSplitter, groupBlocks, type MdBlock } from './markdown-blocks';

export { ToolCall } from './tool-card';

/**
 * Model text as Markdown. Streaming re-renders only the last block: finished blocks are the same objects from one
 * update to the next (markdown-blocks.ts), and `Index` keeps their DOM. Without `ct` (a caller that has none), the
 * strings follow the page's language.
 */
export function Markdown(props: { text: string; ct?: ChatTranslate }) {
  // Text this page just showed (the streamed answer becoming the saved one) shows again at once as far as it was
  // shown, from the blocks it was shown with (not lexed again: 200 KB took ~0.3 s) and their cached HTML: restarting
  // the slices would shrink the answer and regrow it under the reader. Its groups fill in a few per frame, the end
  // first; text the live view had not reached yet follows in slices.
  const seen = shownBefore.get(props.text);
  const splitter = createBlockSplitter(seen && { text: props.text.slice(0, seen.chars), blocks: seen.blocks });
  // A lot of new text at once (a provider that sends a long answer in one burst, a long saved answer opening) is
  // lexed and rendered a slice per frame, as if it streamed, so the page never stops for the whole lot. The slice
  // follows what a frame's work took (`slice`), so a slower or busier machine takes smaller ones.
  const [shownChars, setShownChars] = createSignal(
    !seen ? CHARS_AT_ONCE : seen.chars >= props.text.length ? Infinity : seen.chars,
  );
  const grew = useContext(MarkdownGrowth);
  let queued = false;
  createEffect(() => {
    if (props.text.length <= shownChars() || queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      // The chat's scroll to the end is asked for first: its frame callback then runs before the next slice's, on a
      // layout that is still clean, instead of forcing one more layout of the new slice (traced: 2–3 per frame).
      grew?.();
      const started = performance.now();
      const chars = slice.chars;
      setShownChars((n) => n + chars);
      slice.took(chars, performance.now() - started);
    });
  });
  const blocks = createMemo(() => {
    const chars = Math.min(props.text.length, shownChars());
    const result = splitter.update(chars < props.text.length ? props.text.slice(0, chars) : props.text);
    remember(props.text, result, chars);
    return result;
  });
  const groups = createMemo<MdBlock[][]>((previous) => groupBlocks(blocks(), previous), []);
  const lazyBelow = seen ? Math.max(0, groups().length - EAGER_GROUPS) : 0;
  const ct = (...args: Parameters<ChatTranslate>) => (props.ct ?? pageTranslator)(...args);
  return (
    <div class="md">
      <Index each={groups()}>
        {(group, g) => (
          <Group blocks={group()} lazy={g < lazyBelow}>
            <Index each={group()}>
              {(block, i) => (
                <Block block={block()} last={g === groups().length - 1 && i === group().length - 1} ct={ct} />
              )}
            </Index>
          </Group>
        )}
      </Index>
    </div>
  );
}

/** Called after each slice of a long text is added (the chat keeps following the end when the person was there). */
export const MarkdownGrowth = createContext<() => void>();

/**
 * The last few long texts shown, how much of each (all of it once the slices caught up) and its blocks. Compared by
 * value: a handful of long strings at most.
 */
const shownBefore = new Map<string, { blocks: readonly MdBlock[]; chars: number }>();
function remember(text: string, blocks: readonly MdBlock[], chars: number) {
  if (text.length < CHARS_AT_ONCE) return;
  shownBefore.delete(text);
  shownBefore.set(text, { blocks, chars });
  if (shownBefore.size > 8) shownBefore.delete(shownBefore.keys().next().value!);
}

const CHARS_AT_ONCE = 6_000;

/**
 * How many characters a frame adds: adjusted after each frame to what its lexing, rendering and DOM insertion took,
 * aiming at FRAME_WORK_MS so that, with the layout and paint of the same frame, no task passes 50 ms (the issue's
 * target for a 200 KB answer). Shared by all Markdown views: the machine is the same.
 */
const slice = {
  chars: 2_000,
  took(chars: number, ms: number) {
    const rate = chars / Math.max(ms, 1);
    this.chars = Math.round(Math.min(MAX_SLICE, Math.max(MIN_SLICE, (this.chars + rate * FRAME_WORK_MS) / 2)));
  },
};
const FRAME_WORK_MS = 10;
const MIN_SLICE = 500;
const MAX_SLICE = 6_000;

/** Groups of a text shown whole at once that render at once (the end the reader sees); earlier ones fill in. */
const EAGER_GROUPS = 2;

/**
 * A group of blocks. `lazy`: its blocks render a few groups per frame (the last ones first), meanwhile it holds its
 * estimated height, so a long answer appearing whole never builds all its DOM in one task.
 */
function Group(props: { blocks: readonly MdBlock[]; lazy: boolean; children: JSX.Element }) {
  const [ready, setReady] = createSignal(!props.lazy);
  if (!ready()) onCleanup(renderSoon(() => setReady(true)));
  const height = () => `${estimateHeightEm(props.blocks)}em`;
  return (
    <div class="md-group" style={ready() ? { 'contain-intrinsic-size': `auto ${height()}` } : { height: height() }}>
      <Show when={ready()}>{props.children}</Show>
    </div>
  );
}

/** Pending lazy groups, the latest first; a frame runs them for up to LAZY_FRAME_MS (at least one). */
const soon: (() => void)[] = [];
let soonQueued = false;
const LAZY_FRAME_MS = 8;
function renderSoon(run: () => void): () => void {
  soon.push(run);
  if (!soonQueued) {
    soonQueued = true;
    requestAnimationFrame(runSoon);
  }
  return () => {
    const at = soon.indexOf(run);
    if (at >= 0) soon.splice(at, 1);
  };
}
function runSoon() {
  const started = performance.now();
  do soon.pop()?.();
  while (soon.length > 0 && performance.now() - started < LAZY_FRAME_MS);
  soonQueued = soon.length > 0;
  if (soonQueued) requestAnimationFrame(runSoon);
}

/**
 * A group's height before it was ever on screen (`contain-intrinsic-size`; once shown, `auto` keeps its real one):
 * about a line per 90 characters plus a block's margins. Close enough that scrolling into a long answer's
 * never-shown part does not jump by screens.
 */
function estimateHeightEm(group: readonly MdBlock[]): number {
  let em = 0;
  for (const block of group) {
    const lines = block.kind === 'code' ? lineCount(block.code) + 2.5 : Math.ceil(block.raw.length / 90);
    em += lines * 1.55 + 0.7;
  }
  return Math.round(em);
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

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
const mdHtml = (block: MdBlock, cache: boolean) =>
  block.kind === 'md' && block.tokens
    ? renderMarkdownTokens(block.tokens, block.raw, cache)
    : renderMarkdown(block.raw, cache);

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
