// A tool call in the conversation: one line when collapsed (tool, target, status, duration when this page saw it
// run), expandable to the path, the approved diff (kept after the approval card is gone), the arguments and the
// result. Results are untrusted: a quiet "tool output" label says so; only errors are red.
import './tool-card.css';
import { createEffect, createSignal, For, Show } from 'solid-js';
import { describeRule, type ApprovalRule } from '../../core/page';
import { escapeControls, quoteUntrusted } from '../../core/contracts';
import { normalizeWorkspacePath, shownPathArgument } from '../../core/contracts';
import { prettyArgs, type ToolView } from './chat-model';
import type { ChatTranslate } from './chat-i18n';
import { DiffView } from './diff-view';
import { FullResult } from './full-result';
import { formatDuration, STATE_KEY, toolState } from './tool-state';
import { approvedDiffs, noteToolTime, toolDuration } from './tool-memory';

export function ToolCall(props: {
  tool: ToolView;
  running: boolean;
  waiting: boolean;
  live?: boolean;
  ct: ChatTranslate;
}) {
  const ct = props.ct;
  const state = () => toolState(props.tool, props.running, props.waiting, props.live === true);
  createEffect(() => {
    if (props.running) noteToolTime(props.tool.id, props.tool.args, 'start');
    if (props.tool.result) noteToolTime(props.tool.id, props.tool.args, 'end');
  });
  const duration = () => toolDuration(props.tool.id, props.tool.args);
  const [opened, setOpened] = createSignal(false);
  const diffs = () => approvedDiffs(props.tool.id, props.tool.args);
  const statusText = () => {
    const s = state();
    const code = props.tool.result?.code;
    return s === 'failed' && code ? `${ct('tool.failed')} · ${code}` : ct(STATE_KEY[s]);
  };
  return (
    <details
      class="tool-call"
      onToggle={(e) => e.currentTarget.open && setOpened(true)}
      classList={{ 'tool-error': state() === 'failed' }}
      data-tool={props.tool.name}
      data-call-id={props.tool.id}
      data-state={state()}
    >
      <summary>
        <span class="tool-dot" aria-hidden="true" />
        <span class="tool-name">{props.tool.name}</span>
        <span class="tool-brief" title={pathOf(props.tool.args) ?? undefined}>
          {brief(props.tool.args)}
        </span>
        <span class="tool-status">{statusText()}</span>
        <Show when={duration() !== undefined}>
          <span class="tool-time">{formatDuration(duration()!)}</span>
        </Show>
      </summary>
      <div class="tool-body">
        <Show when={pathOf(props.tool.args)}>
          {(path) => (
            <p class="tool-path" data-testid="tool-path">
              {ct('write.callPath', { path: path() })}
            </p>
          )}
        </Show>
        <For each={diffs()}>
          {(diff) => (
            <>
              <p class="tool-label">{ct('tool.changes')}</p>
              <DiffView diff={diff} label={ct('diff')} />
            </>
          )}
        </For>
        <Show when={props.tool.result?.outsideUndo}>
          <p class="tool-rule" data-testid="tool-outside-undo">
            {ct('rule.outsideUndo')}
          </p>
        </Show>
        <Show when={props.tool.result?.rule}>
          {(rule) => (
            <p class="tool-rule" data-testid="tool-rule">
              {ct('rule.decided', {
                rule: describeRule(rule() as ApprovalRule),
                scope: ct(rule().scope === 'global' ? 'rule.scope.global' : 'rule.scope.workspace'),
              })}
            </p>
          )}
        </Show>
        <p class="tool-label">{ct('tool.args')}</p>
        <pre class="code tool-args">{prettyArgs(props.tool.args)}</pre>
        {/* The result (up to a page of it) is rendered once the card is opened: a long session's closed cards stay light. */}
        <Show when={opened() && props.tool.result}>
          {(r) => (
            <>
              <p class="tool-label" classList={{ 'tool-label-error': r().error }}>
                {r().error ? ct('tool.error') : ct('tool.output')}
              </p>
              <FullResult
                output={r().output}
                full={r().full}
                error={r().error}
                label={r().error ? ct('tool.error') : ct('tool.output')}
                ct={ct}
              />
            </>
          )}
        </Show>
      </div>
    </details>
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
    // Controls, bidi and zero-width characters shown escaped: one line that reads as what the model sent.
    for (const key of ['pattern', 'query', 'url', 'name', 'command'])
      if (typeof args[key] === 'string')
        return escapeControls((args[key] as string).slice(0, 200), { keepLayout: false });
  } catch {
    // not JSON: show the start of the text
  }
  return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
}
