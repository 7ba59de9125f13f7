// The inline approval card: the tool, its one-line summary, the diff or detail, Allow / Deny / always allow.
import { createUniqueId, onMount, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { PendingApproval } from './chat-controller';
import { prettyArgs } from './chat-model';

export function ApprovalCard(props: { pending: PendingApproval; ct: ChatTranslate }) {
  const ct = props.ct;
  const id = createUniqueId();
  const req = () => props.pending.request;
  const write = () => props.pending.write;
  let allow: HTMLButtonElement | undefined;
  onMount(() => allow?.focus({ preventScroll: false }));
  return (
    <section class="approval-card" role="group" aria-labelledby={id} data-call-id={req().callId} data-kind={write() ? 'write' : 'call'}>
      <h3 id={id}>{write() ? ct('writeTitle', { plugin: write()!.pluginId, path: write()!.path }) : ct('approvalTitle', { name: req().name })}</h3>
      <Show when={!write() && req().prepared?.summary}>{(summary) => <p class="approval-summary">{summary()}</p>}</Show>
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
        <Show when={!write()}>
          <button type="button" class="button ghost small" onClick={() => props.pending.answer('allow', true)}>
            {ct('allowSession', { name: req().name })}
          </button>
        </Show>
      </div>
    </section>
  );
}
