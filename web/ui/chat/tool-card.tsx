// A tool call in the conversation: one line when collapsed, expandable. Read-only built-ins (read, glob, search,
// view_image) say what happened in one sentence ("Searched for `needle` in src/ — 12 matches in 4 files") that
// opens to the result; an applied write or edit shows its +/− counts and opens to the diff (kept after the approval
// card is gone and, through the log, after a reload), with the call's details one click further. Other tools show
// the tool, its target, the arguments and the result. Results are untrusted: a quiet "tool output" label says so;
// only errors are red.
import './tool-card.css';
import { createEffect, createMemo, createSignal, createUniqueId, For, Show, type JSX } from 'solid-js';
import { describeRule, unifiedDiff, type ApprovalRule } from '../../core/page';
import { APPLIED_DIFF_HEADER, escapeControls, quoteUntrusted } from '../../core/contracts';
import { normalizeWorkspacePath, shownPathArgument } from '../../core/contracts';
import { prettyArgs, type ToolView } from './chat-model';
import type { ChatTranslate } from './chat-i18n';
import { DiffView } from './diff-view';
import { FullResult } from './full-result';
import { formatDuration, STATE_KEY, toolState } from './tool-state';
import { approvedDiffs, noteToolTime, toolDuration } from './tool-memory';
import { CREATED_DIFF_MAX_CHARS, diffCounts, loggedDiff, toolSentence, type ToolSentence } from './tool-sentence';

const createdDiff = (content: string, path: string) =>
  unifiedDiff('', content, null, path, { maxChars: CREATED_DIFF_MAX_CHARS });

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
  // The diffs this page saw approved; else the one the log keeps (after a reload, or a call run without asking).
  const diffs = createMemo(() => {
    const seen = approvedDiffs(props.tool.id, props.tool.args);
    if (seen.length > 0) return seen;
    const logged = loggedDiff(props.tool, createdDiff);
    return logged ? [logged] : [];
  });
  const counts = createMemo(() => {
    const all = diffs().map(diffCounts);
    return all.length === 0
      ? null
      : all.reduce((a, b) => ({ added: a.added + b.added, removed: a.removed + b.removed }));
  });
  const sentence = createMemo(() =>
    ['read', 'glob', 'search', 'view_image'].includes(props.tool.name) ? toolSentence(props.tool) : null,
  );
  // An edit's or write's result without its diff (shown above it already).
  const resultText = (text: string) => {
    const at = diffs().length > 0 ? text.indexOf(`\n${APPLIED_DIFF_HEADER}\n`) : -1;
    return at >= 0 ? text.slice(0, at) : text;
  };
  const statusText = () => {
    const s = state();
    const code = props.tool.result?.code;
    return s === 'failed' && code ? `${ct('tool.failed')} · ${code}` : ct(STATE_KEY[s]);
  };
  const result = () =>
    props.tool.result && (
      <>
        <p class="tool-label" classList={{ 'tool-label-error': props.tool.result.error }}>
          {props.tool.result.error ? ct('tool.error') : ct('tool.output')}
        </p>
        <FullResult
          output={resultText(props.tool.result.output)}
          full={props.tool.result.full === undefined ? undefined : resultText(props.tool.result.full)}
          error={props.tool.result.error}
          label={props.tool.result.error ? ct('tool.error') : ct('tool.output')}
          ct={ct}
        />
      </>
    );
  const [more, setMore] = createSignal(false);
  const moreId = createUniqueId();
  const pathNote = () => (
    <Show when={pathOf(props.tool.args)}>
      {(path) => (
        <p class="tool-path" data-testid="tool-path">
          {ct('write.callPath', { path: path() })}
        </p>
      )}
    </Show>
  );
  // Who decided the call and whether undo covers it: shown on every opened card, above the diff or the result.
  const decisionNotes = () => (
    <>
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
    </>
  );
  const notes = () => (
    <>
      {pathNote()}
      {decisionNotes()}
    </>
  );
  const details = () => (
    <>
      {notes()}
      <p class="tool-label">{ct('tool.args')}</p>
      <pre class="code tool-args">{prettyArgs(props.tool.args)}</pre>
    </>
  );
  return (
    <details
      class="tool-call"
      onToggle={(e) => e.currentTarget.open && setOpened(true)}
      classList={{ 'tool-error': state() === 'failed', 'tool-sentence-card': sentence() !== null }}
      data-tool={props.tool.name}
      data-call-id={props.tool.id}
      data-state={state()}
    >
      <summary>
        <span class="tool-dot" aria-hidden="true" />
        <Show
          when={sentence()}
          fallback={
            <>
              <span class="tool-name">{props.tool.name}</span>
              <span class="tool-brief" title={pathOf(props.tool.args) ?? undefined}>
                {brief(props.tool.args)}
              </span>
            </>
          }
        >
          {(s) => (
            <span class="tool-sentence" title={pathOf(props.tool.args) ?? undefined}>
              <SentenceText sentence={s()} ct={ct} />
            </span>
          )}
        </Show>
        <Show when={counts()}>
          {(c) => (
            <span class="tool-counts" data-testid="diff-counts">
              <span class="visually-hidden">{ct('ts.counts', { added: c().added, removed: c().removed })}</span>
              <span class="tool-added" aria-hidden="true">{`+${c().added}`}</span>
              <span class="tool-removed" aria-hidden="true">{`−${c().removed}`}</span>
            </span>
          )}
        </Show>
        <span class="tool-status">{statusText()}</span>
        <Show when={duration() !== undefined}>
          <span class="tool-time">{formatDuration(duration()!)}</span>
        </Show>
      </summary>
      <div class="tool-body">
        <Show
          when={sentence() === null}
          fallback={
            // A read-only call opens to its result: the sentence already says what was asked.
            <>
              {notes()}
              <Show when={opened()}>{result()}</Show>
            </>
          }
        >
          <Show
            when={diffs().length > 0}
            fallback={
              <>
                {details()}
                {/* The result (up to a page of it) is rendered once the card is opened: closed cards stay light. */}
                <Show when={opened()}>{result()}</Show>
              </>
            }
          >
            {decisionNotes()}
            <For each={diffs()}>
              {(diff) => <DiffView diff={diff} label={ct('ts.diffLabel', { path: pathOf(props.tool.args) ?? '' })} />}
            </For>
            {/* A button, not a nested <details>: the card keeps one summary, its own line. */}
            <button
              type="button"
              class="tool-more-toggle"
              aria-expanded={more()}
              aria-controls={moreId}
              onClick={() => setMore((v) => !v)}
            >
              {ct('ts.details')}
            </button>
            <div id={moreId} class="tool-more-body" hidden={!more()}>
              <Show when={more()}>
                {pathNote()}
                <p class="tool-label">{ct('tool.args')}</p>
                <pre class="code tool-args">{prettyArgs(props.tool.args)}</pre>
                {result()}
              </Show>
            </div>
          </Show>
        </Show>
      </div>
    </details>
  );
}

/** A sentence with its pattern-like parameters as code: the translation is filled with markers, then split. */
function SentenceText(props: { sentence: ToolSentence; ct: ChatTranslate }): JSX.Element {
  const parts = () => {
    const s = props.sentence;
    const params: Record<string, string | number> = { ...s.params };
    for (const [name, c] of Object.entries(s.counted ?? {}))
      params[name] = c.n === 1 ? props.ct(c.one) : props.ct(c.many, { n: c.n });
    for (const [i, name] of s.code.entries()) if (name in params) params[name] = `\u0001${i}\u0001`;
    return props
      .ct(s.key, params)
      .split('\u0001')
      .map((text, i) => (i % 2 === 1 ? { code: String(s.params[s.code[Number(text)]!]) } : { text }));
  };
  return (
    <For each={parts()}>
      {(part) => ('code' in part ? <code class="tool-code">{part.code}</code> : <>{part.text}</>)}
    </For>
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
