// The inline approval card: the tool, its one-line summary, the diff or detail, Allow / Deny / always allow, and an
// optional "Tell the agent why" that goes with Deny to the model (in the tool error, as the person's words).
// A write names the normalised path that will be written (`"raw" → path` when the tool or plugin sent another form);
// a file the write policy always asks about says why, and offers no "always allow". A write/edit that offers a review
// shows it in approval-review.tsx (diff, merge view, "Edit before allowing"); Allow then sends the person's version.
//
// Keyboard (issue 33): the card takes the focus when it appears — its Allow button, or the card itself when the
// focus was in the message box (whose draft stays: only the focus moves, and the keys typed in the next moment are
// not read as answers). A person typing at that moment keeps the focus and every key until they pause for 700 ms:
// a word with an "a" in it, or a space, must never answer the card. While the focus is in the card, Enter allows once, Esc denies and A always
// allows in this session (when offered); the buttons show these keys. Focus then goes back where it was. A screen
// reader hears the card once, through the focus landing on it (its title names it; no live region repeats it).
import './approval-card.css';
import { createSignal, createUniqueId, onCleanup, onMount, Show } from 'solid-js';
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
  const allowSession = () => allowWith(true);
  const offersSession = () => !write() && !alwaysAsk();
  let allow: HTMLButtonElement | undefined;
  let card: HTMLElement | undefined;
  let before: HTMLElement | null = null;
  // Keys typed before this moment were meant for the message box, not for this card.
  let readKeysFrom = 0;
  let waitForPause: ReturnType<typeof setInterval> | undefined;
  const takeFocus = (from: Element | null) => {
    if (isTyping(from)) {
      // A space or Enter on its way to the box would answer the card: the card itself takes the focus, and keys
      // are read a moment later.
      readKeysFrom = performance.now() + TYPING_GRACE_MS;
      card?.focus({ preventScroll: true });
    } else allow?.focus({ preventScroll: true });
  };
  onMount(() => {
    watchTyping();
    const active = document.activeElement;
    before = active instanceof HTMLElement && active !== document.body ? active : null;
    card?.scrollIntoView({ block: 'nearest' });
    if (!isTyping(active) || performance.now() - lastTypedAt >= TYPING_GRACE_MS) return takeFocus(active);
    // The person is typing right now: every key stays theirs. The card takes the focus once they pause, unless
    // they have moved somewhere else meanwhile.
    waitForPause = setInterval(() => {
      if (performance.now() - lastTypedAt < TYPING_GRACE_MS) return;
      clearInterval(waitForPause);
      waitForPause = undefined;
      if (document.activeElement === active) takeFocus(active);
    }, 100);
  });
  onCleanup(() => {
    if (waitForPause !== undefined) clearInterval(waitForPause);
    // The card goes once answered; the focus returns to where the person was (the box, with its draft).
    const back = before;
    queueMicrotask(() => {
      const active = document.activeElement;
      if (back?.isConnected && (!active || active === document.body)) back.focus({ preventScroll: true });
    });
  });
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    // The element the key is really for: the review's merge view lives in a shadow root, whose events reach the
    // card retargeted to its host.
    const target = (e.composedPath()[0] ?? e.target) as HTMLElement;
    // The reason field and the review's editor keep their keys; a focused button answers Enter itself.
    if (isTyping(target) || target.closest?.('.cm-editor') || e.composedPath().some(isShadowHost)) return;
    if (performance.now() < readKeysFrom) {
      if (e.key === 'Enter' || e.key === ' ') e.preventDefault();
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault(); // handled here: the same key does not also stop the turn
      deny();
    } else if (e.key === 'Enter' && target === card) {
      e.preventDefault();
      allowWith(false);
    } else if ((e.key === 'a' || e.key === 'A') && !e.shiftKey && offersSession()) {
      e.preventDefault();
      allowSession();
    }
  };
  return (
    <section
      ref={(el) => (card = el)}
      class="approval-card"
      role="group"
      tabIndex={-1}
      aria-labelledby={id}
      onKeyDown={onKeyDown}
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
        <button
          ref={(el) => (allow = el)}
          type="button"
          class="button primary"
          aria-keyshortcuts="Enter"
          onClick={() => allowWith(false)}
        >
          {mine() !== null ? ct('review.allowMine') : ct('allow')}
          <kbd class="approval-key" aria-hidden="true">
            ↵
          </kbd>
        </button>
        <button type="button" class="button" aria-keyshortcuts="Escape" onClick={deny}>
          {ct('deny')}
          <kbd class="approval-key" aria-hidden="true">
            Esc
          </kbd>
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
        <Show when={offersSession()}>
          <button type="button" class="button ghost small" aria-keyshortcuts="A" onClick={allowSession}>
            {ct('allowSession', { name: req().name })}
            <kbd class="approval-key" aria-hidden="true">
              A
            </kbd>
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

/** A shadow root's host on the way to the card: keys typed inside it (the merge view's editor) are text. */
const isShadowHost = (node: EventTarget) => node instanceof Element && node.shadowRoot !== null;

/** How long a pause in typing ends it: the card waits for one before it takes the focus from the message box, and
 *  keys in the same moment after it took the focus are not read as answers. */
const TYPING_GRACE_MS = 700;

/** When the person last typed a key into a text field of the page (one listener, installed by the first card). */
let lastTypedAt = -Infinity;
let watching = false;
function watchTyping() {
  if (watching) return;
  watching = true;
  document.addEventListener(
    'keydown',
    (e) => {
      if (isTyping((e.composedPath()[0] ?? e.target) as Element)) lastTypedAt = performance.now();
    },
    { capture: true },
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
