// Pieces of one chat item: markdown text, collapsible thinking, a tool call with arguments and (untrusted) result.
import { For, Show } from 'solid-js';
import { quoteUntrusted } from '../../core/errors';
import { normalizeWorkspacePath, shownWritePath } from '../../core/fs';
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
        <span class="tool-brief">{brief(props.tool.args)}</span>
        <span class="tool-status">{status()}</span>
      </summary>
      <div class="tool-body">
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

/** A path argument as the workspace will read it: normalised, `"raw" → normalised` when the model sent another form. */
function shownPath(raw: string): string {
  try {
    return shownWritePath(raw, normalizeWorkspacePath(raw, { allowRoot: true }).path || '.');
  } catch {
    return quoteUntrusted(raw, 60); // refused by the path policy: the result says why
  }
}

/** One line for the summary: the path-like argument if any, else the start of the JSON. */
function brief(raw: string): string {
  try {
    const args = JSON.parse(raw) as Record<string, unknown>;
    if (typeof args.path === 'string') return shownPath(args.path);
    for (const key of ['pattern', 'query', 'url', 'name']) if (typeof args[key] === 'string') return args[key] as string;
  } catch {
    // not JSON: show the start of the text
  }
  return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
}
