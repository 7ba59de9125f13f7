// The inline approval card: the tool, its one-line summary, the diff or detail, Allow / Deny / always allow.
// A write names the normalised path that will be written (`"raw" → path` when the tool or plugin sent another form);
// a file the write policy always asks about says why, and offers no "always allow".
import { createUniqueId, onMount, Show } from 'solid-js';
import { shownPathArgument, shownWritePath } from '../../core/fs';
import { askReasonKey } from './ask-reason-strings';
import type { ChatTranslate } from './chat-i18n';
import type { PendingApproval } from './chat-controller';
import { prettyArgs } from './chat-model';

export function ApprovalCard(props: { pending: PendingApproval; ct: ChatTranslate }) {
  const ct = props.ct;
  const id = createUniqueId();
  const req = () => props.pending.request;
  const write = () => props.pending.write;
  const alwaysAsk = () => write()?.alwaysAsk ?? req().prepared?.alwaysAsk;
  const target = () => (write() ? { path: write()!.path, raw: write()!.rawPath } : req().prepared?.target);
  // A call that names a path but prepared no target (a plugin or bridge tool): the path as the workspace reads it.
  const pathArg = () => (!write() && !req().prepared?.target && typeof req().arguments.path === 'string' ? (req().arguments.path as string) : undefined);
  let allow: HTMLButtonElement | undefined;
  onMount(() => allow?.focus({ preventScroll: false }));
  return (
    <section class="approval-card" role="group" aria-labelledby={id} data-call-id={req().callId} data-kind={write() ? 'write' : 'call'} data-path={target()?.path} data-always-ask={alwaysAsk()?.reason}>
      <h3 id={id}>{write() ? ct('writeTitle', { plugin: write()!.pluginId, path: shownWritePath(write()!.rawPath ?? write()!.path, write()!.path) }) : ct('approvalTitle', { name: req().name })}</h3>
      <Show when={!write() && req().prepared?.summary}>{(summary) => <p class="approval-summary">{summary()}</p>}</Show>
      <Show when={pathArg()}>{(raw) => <p class="approval-summary" data-testid="call-path">{ct('write.callPath', { path: shownPathArgument(raw()) })}</p>}</Show>
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
      <Show when={req().prepared?.detail} fallback={<pre class="code">{write() ? ct('writeNoChange') : prettyArgs(JSON.stringify(req().arguments))}</pre>}>
        {(detail) => (
          <pre class="code diff" aria-label={ct('diff')}>
            {detail()
              .replace(/\n$/, '')
              .split('\n')
              .map((line) => (
                <span class={line.startsWith('+') && !line.startsWith('+++') ? 'diff-add' : line.startsWith('-') && !line.startsWith('---') ? 'diff-del' : line.startsWith('@@') ? 'diff-hunk' : ''}>{`${line}\n`}</span>
              ))}
          </pre>
        )}
      </Show>
      <div class="approval-actions">
        <button ref={(el) => (allow = el)} type="button" class="button primary" onClick={() => props.pending.answer('allow')}>
          {ct('allow')}
        </button>
        <button type="button" class="button" onClick={() => props.pending.answer('deny')}>
          {ct('deny')}
        </button>
        <Show when={!write() && !alwaysAsk()}>
          <button type="button" class="button ghost small" onClick={() => props.pending.answer('allow', true)}>
            {ct('allowSession', { name: req().name })}
          </button>
        </Show>
      </div>
    </section>
  );
}
