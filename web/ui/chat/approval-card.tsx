// The inline approval card: the tool, its one-line summary, the diff or detail, Allow / Deny / always allow, and an
// optional "Tell the agent why" that goes with Deny to the model (in the tool error, as the person's words).
// A write names the normalised path that will be written (`"raw" → path` when the tool or plugin sent another form);
// a file the write policy always asks about says why, and offers no "always allow". A write/edit that offers a review
// shows it in approval-review.tsx (diff, merge view, "Edit before allowing"); Allow then sends the person's version.
import './approval-card.css';
import { createSignal, createUniqueId, onMount, Show } from 'solid-js';
import { shownPathArgument, shownWritePath } from '../../core/contracts';
import type { ApprovalRule } from '../../core/page';
import { askReasonKey } from './ask-reason-strings';
import { cardRule } from './card-rule';
import type { ChatTranslate } from './chat-i18n';
import type { PendingApproval } from './chat-controller';
import { prettyArgs } from './chat-model';
import { unifiedDiff } from '../../core/page';
import { ApprovalReview } from './approval-review';
import { DiffView } from './diff-view';
import { rememberApproval } from './tool-memory';
import { summaryText } from './tool-summary';

export function ApprovalCard(props: { pending: PendingApproval; ct: ChatTranslate }) {
  const ct = props.ct;
  const id = createUniqueId();
  const req = () => props.pending.request;
  const write = () => props.pending.write;
  const alwaysAsk = () => write()?.alwaysAsk ?? req().prepared?.alwaysAsk;
  const target = () => (write() ? { path: write()!.path, raw: write()!.rawPath } : req().prepared?.target);
  // A call that names a path but prepared no target (a plugin or bridge tool): the path as the workspace reads it.
  const pathArg = () =>
    !write() && !req().prepared?.target && typeof req().arguments.path === 'string'
      ? (req().arguments.path as string)
      : undefined;
  const [reason, setReason] = createSignal('');
  /** The person's edit of the proposed content (null: none, or the same as proposed). */
  const [mine, setMine] = createSignal<string | null>(null);
  const review = () => (write() ? undefined : req().prepared?.review);
  const reasonId = createUniqueId();
  // Once allowed, the tool card keeps the diff the person saw (a declined call shows no changes: none were made).
  const offered = () => (write() ? null : cardRule(req()));
  const allowWith = (always: boolean | ApprovalRule) => {
    const content = mine();
    const r = review();
    const request = props.pending.request;
    const path = request.prepared?.target?.path ?? '';
    // With the person's version, the tool card keeps the diff of what is written, not of the agent's proposal.
    const shown =
      content !== null && r && request.prepared
        ? {
            ...request,
            prepared: {
              ...request.prepared,
              detail: unifiedDiff(r.before ?? '', content, r.before === null ? null : path, path),
            },
          }
        : request;
    rememberApproval(shown, props.pending.write !== undefined);
    props.pending.answer('allow', always, undefined, content ?? undefined);
  };
  const deny = () => props.pending.answer('deny', false, reason().trim() || undefined);
  let allow: HTMLButtonElement | undefined;
  // Allow gets the focus only when the person is not typing: a card that took the focus from the message box would
  // turn the next space or Enter typed there into an approval.
  onMount(() => {
    if (!isTyping(document.activeElement)) allow?.focus({ preventScroll: false });
  });
  return (
    <section
      class="approval-card"
      role="group"
      aria-labelledby={id}
      data-call-id={req().callId}
      data-kind={write() ? 'write' : 'call'}
      data-path={target()?.path}
      data-always-ask={alwaysAsk()?.reason}
    >
      <h3 id={id}>
        {write()
          ? ct('writeTitle', {
              plugin: write()!.pluginId,
              path: shownWritePath(write()!.rawPath ?? write()!.path, write()!.path),
            })
          : ct('approvalTitle', { name: req().name })}
      </h3>
      <Show when={!write() && req().prepared?.summary}>
        {(summary) => <p class="approval-summary">{summaryText(summary(), ct)}</p>}
      </Show>
      <Show when={pathArg()}>
        {(raw) => (
          <p class="approval-summary" data-testid="call-path">
            {ct('write.callPath', { path: shownPathArgument(raw()) })}
          </p>
        )}
      </Show>
      <Show when={alwaysAsk()}>
        {(ask) => (
          <p class="approval-summary approval-why" data-testid="ask-reason">
            {ct('write.askAlways', { reason: ct(askReasonKey(ask().reason)) })}
          </p>
        )}
      </Show>
      <Show when={write() && !write()!.exists}>
        <p class="approval-summary">{ct('writeNew')}</p>
      </Show>
      <Show
        when={req().prepared?.detail}
        fallback={<pre class="code">{write() ? ct('writeNoChange') : prettyArgs(JSON.stringify(req().arguments))}</pre>}
      >
        {(detail) => (
          <Show when={review()} fallback={<DiffView diff={detail()} label={ct('diff')} />}>
            {(r) => (
              <ApprovalReview
                review={r()}
                path={target()?.path ?? ''}
                ct={ct}
                diff={<DiffView diff={detail()} label={ct('diff')} />}
                onContent={setMine}
              />
            )}
          </Show>
        )}
      </Show>
      <div class="approval-actions">
        <button ref={(el) => (allow = el)} type="button" class="button primary" onClick={() => allowWith(false)}>
          {mine() !== null ? ct('review.allowMine') : ct('allow')}
        </button>
        <button type="button" class="button" onClick={deny}>
          {ct('deny')}
        </button>
        <Show when={offered()}>
          {(o) => {
            const where = o().where;
            return (
              <button
                type="button"
                class="button ghost small"
                title={ct('rule.allowInHint')}
                onClick={() => allowWith(o().rule)}
              >
                {'folder' in where
                  ? ct('rule.allowIn', { name: req().name, folder: where.folder })
                  : ct('rule.allowOn', { name: req().name, path: where.path })}
              </button>
            );
          }}
        </Show>
        <Show when={!write() && !alwaysAsk()}>
          <button type="button" class="button ghost small" onClick={() => allowWith(true)}>
            {ct('allowSession', { name: req().name })}
          </button>
        </Show>
      </div>
      {/* A plugin's single write is answered yes/no inside the running tool: no reason reaches the model there. */}
      <Show when={!write()}>
        <div class="approval-why-field">
          <label for={reasonId}>{ct('deny.why')}</label>
          <input
            id={reasonId}
            type="text"
            maxLength={4000}
            autocomplete="off"
            placeholder={ct('deny.whyPlaceholder')}
            value={reason()}
            onInput={(e) => setReason(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter in the reason field denies with it: typing a reason only makes sense for a deny.
              if (e.key === 'Enter' && !e.isComposing && reason().trim() !== '') {
                e.preventDefault();
                deny();
              }
            }}
          />
        </div>
      </Show>
    </section>
  );
}

function isTyping(element: Element | null): boolean {
  if (!element) return false;
  if (element instanceof HTMLTextAreaElement || (element as HTMLElement).isContentEditable) return true;
  return (
    element instanceof HTMLInputElement &&
    !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(element.type)
  );
}
