// Workspace content in the conversation (AGENTS.md, memory/skills snapshots and deltas, a replay notice): one small
// labelled line, collapsed by default, that opens to the text the model was given. It is never styled or offered
// as the person's words: no bubble, no Edit/resend.
import './items.css';
import { createSignal, createUniqueId, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ContextKind } from './chat-model';

export function contextLabel(kind: ContextKind, ct: ChatTranslate, source = 'AGENTS.md'): string {
  return kind === 'instructions' ? ct('ctx.instructions', { source }) : ct(`ctx.${kind}`);
}

export function ContextItem(props: {
  context: ContextKind;
  text: string;
  source?: string;
  count?: number;
  truncated?: boolean;
  ct: ChatTranslate;
}) {
  const ct = props.ct;
  const [open, setOpen] = createSignal(false);
  const body = createUniqueId();
  const label = () => contextLabel(props.context, ct, props.source);
  const count = () =>
    props.count === undefined || props.count === 0
      ? ''
      : props.count === 1
        ? ct('ctx.entry')
        : ct('ctx.entries', { n: props.count });
  return (
    <section class="ctx-item" data-context={props.context} aria-label={label()}>
      <button
        type="button"
        class="ctx-toggle"
        aria-expanded={open()}
        aria-controls={open() ? body : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span class="ctx-chevron" aria-hidden="true" />
        <span class="ctx-icon" aria-hidden="true" />
        <span class="ctx-label">{label()}</span>
        <Show when={count()}>
          <span class="ctx-count">{count()}</span>
        </Show>
      </button>
      <Show when={open()}>
        <div class="ctx-body" id={body}>
          <Show when={props.context !== 'replay'}>
            <p class="ctx-hint">{ct('ctx.hint')}</p>
          </Show>
          <pre class="code ctx-text">{props.text}</pre>
          <Show when={props.truncated}>
            <p class="ctx-hint">{ct('ctx.truncated')}</p>
          </Show>
        </div>
      </Show>
    </section>
  );
}
