// Pieces of one chat item: markdown text, collapsible thinking, a tool call with arguments and (untrusted) result.
import { For, Show } from 'solid-js';
import { quoteUntrusted } from '../../core/errors';
import { normalizeWorkspacePath, shownPathArgument } from '../../core/fs';
import { prettyArgs, type ToolView } from './chat-model';
import type { ChatTranslate } from './chat-i18n';
import { renderMarkdown } from './markdown';

export function Markdown(props: { text: string }) {
  return <div class="md" innerHTML={renderMarkdown(props.text)} />;
}

export function Thinking(props: { text: string; live?: boolean; ct: ChatTranslate }) {
  return (
    <details class="thinking" open={props.live}>
      <summary>{props.live ? props.ct('thinkingLive') : props.ct('thinking')}</summary>
      <div class="thinking-text">{props.text}</div>
    </details>
  );
}

export function ToolCall(props: { tool: ToolView; running: boolean; waiting: boolean; ct: ChatTranslate }) {
  const ct = props.ct;
  const status = () => {
    const r = props.tool.result;
    if (!r) return props.waiting ? ct('toolWaiting') : props.running ? ct('toolRunning') : '…';
    if (!r.error) return 'ok';
    return r.code === 'E_TOOL_REJECTED' || r.code === 'E_APPROVAL_REQUIRED' ? ct('toolRefused') : `${ct('toolFailed')}${r.code ? ` · ${r.code}` : ''}`;
  };
  return (
    <details class="tool-call" classList={{ 'tool-error': props.tool.result?.error === true }} data-tool={props.tool.name} data-call-id={props.tool.id}>
      <summary>
        <span class="tool-name">{props.tool.name}</span>
        <span class="tool-brief" title={pathOf(props.tool.args) ?? undefined}>
          {brief(props.tool.args)}
        </span>
        <span class="tool-status">{status()}</span>
      </summary>
      <div class="tool-body">
        <Show when={pathOf(props.tool.args)}>
          {(path) => (
            <p class="tool-path" data-testid="tool-path">
              {ct('write.callPath', { path: path() })}
            </p>
          )}
        </Show>
        <p class="tool-label">{ct('toolArgs')}</p>
        <pre class="code">{prettyArgs(props.tool.args)}</pre>
        <Show when={props.tool.result}>
          {(r) => (
            <>
              <p class="tool-label untrusted">{ct('toolResult')}</p>
              <pre class="code tool-output" aria-label={ct('toolResult')}>
                {r().output}
              </pre>
            </>
          )}
        </Show>
      </div>
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

/** The `path` argument as the workspace reads it (`"raw" → normalised` when they differ), or null. */
function pathOf(raw: string): string | null {
  try {
    const args = JSON.parse(raw) as Record<string, unknown>;
    return typeof args.path === 'string' ? shownPathArgument(args.path) : null;
  } catch {
    return null;
  }
}

/**
 * One line for the summary: the path-like argument if any, else the start of the JSON. A path is shown normalised,
 * first, so the one line (cut by the card's width) always names the file that is used; `← "raw…"` follows when
 * the model sent another form, and the card's body shows `raw → normalised` in full.
 */
function brief(raw: string): string {
  try {
    const args = JSON.parse(raw) as Record<string, unknown>;
    if (typeof args.path === 'string') {
      const path = args.path;
      let normalised: string;
      try {
        normalised = normalizeWorkspacePath(path, { allowRoot: true }).path || '.';
      } catch {
        return shownPathArgument(path); // refused: quoted and bounded, the result says why
      }
      return normalised === path ? path : `${normalised} ← ${quoteUntrusted(path, 40)}`;
    }
    for (const key of ['pattern', 'query', 'url', 'name']) if (typeof args[key] === 'string') return args[key] as string;
  } catch {
    // not JSON: show the start of the text
  }
  return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
}
