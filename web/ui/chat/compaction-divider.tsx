// A compaction in the conversation: a divider that says what was folded ("30 messages → summary (15,200 → 2,100
// tokens)", the focus when the person gave one) instead of a user bubble. It opens to the summary the model sees
// from then on and, on demand, to the original messages, read from the session log and shown read-only, dimmed.
import './items.css';
import { createSignal, createUniqueId, For, Show, type JSX } from 'solid-js';
import type { ErrorData, Message } from '../../core/contracts';
import type { CompactionInfo } from '../../core/contracts';
import type { ChatTranslate } from './chat-i18n';
import { chatItems, withLineBreaks, type ChatItem } from './chat-model';
import { Markdown } from './message-parts';

type Originals = { state: 'loading' } | { state: 'shown'; items: ChatItem[] } | { state: 'failed'; error: ErrorData };

export function CompactionDivider(props: {
  summary: string;
  info?: CompactionInfo | undefined;
  ct: ChatTranslate;
  /** Reads the messages this compaction folded from the session log. */
  folded: (id: string) => Promise<Message[]>;
  /** Renders one original item, read-only. */
  renderItem: (item: ChatItem) => JSX.Element;
}) {
  const ct = props.ct;
  const [open, setOpen] = createSignal(false);
  const [originals, setOriginals] = createSignal<Originals | null>(null);
  const body = createUniqueId();
  const failed = () => {
    const o = originals();
    return o?.state === 'failed' ? o.error : null;
  };
  const shownItems = () => {
    const o = originals();
    return o?.state === 'shown' ? o.items : null;
  };
  const title = () => {
    const i = props.info;
    return i
      ? ct('compact.divider', {
          n: i.folded_messages,
          before: i.tokens_before.toLocaleString('en-US'),
          after: i.tokens_after.toLocaleString('en-US'),
        })
      : ct('compact.dividerPlain');
  };
  async function showOriginals(id: string) {
    setOriginals({ state: 'loading' });
    try {
      setOriginals({ state: 'shown', items: chatItems(await props.folded(id)) });
    } catch (error) {
      const e = error as Partial<ErrorData>;
      setOriginals({
        state: 'failed',
        error: { code: e.code ?? 'E_COMPACTION_NOT_FOUND', message: e.message ?? String(error) },
      });
    }
  }
  return (
    <section class="compaction" classList={{ open: open() }} aria-label={title()} data-compaction-id={props.info?.id}>
      <div class="compaction-rule">
        <button
          type="button"
          class="compaction-toggle"
          aria-expanded={open()}
          aria-controls={open() ? body : undefined}
          onClick={() => setOpen((o) => !o)}
        >
          <span class="ctx-chevron" aria-hidden="true" />
          <span class="compaction-title">{title()}</span>
        </button>
      </div>
      <Show when={props.info?.focus || props.info?.manual}>
        <p class="compaction-meta">
          {props.info?.focus ? ct('compact.focus', { focus: props.info.focus }) : ct('compact.manual')}
        </p>
      </Show>
      <Show when={open()}>
        <div class="compaction-body" id={body}>
          <p class="compaction-label">{ct('compact.summary')}</p>
          <div class="compaction-summary">
            <Markdown text={withLineBreaks(props.summary)} ct={ct} />
          </div>
          <Show when={props.info?.id}>
            {(id) => (
              <Show
                when={originals()}
                fallback={
                  <button type="button" class="button small ghost" onClick={() => void showOriginals(id())}>
                    {ct('compact.showOriginal')}
                  </button>
                }
              >
                {(o) => (
                  <>
                    <button type="button" class="button small ghost" onClick={() => setOriginals(null)}>
                      {ct('compact.hideOriginal')}
                    </button>
                    <Show when={o().state === 'loading'}>
                      <p class="compaction-label" role="status">
                        {ct('compact.loading')}
                      </p>
                    </Show>
                    <Show when={failed()}>
                      {(e) => (
                        <p class="chat-warning" role="alert">
                          {ct('warning', { code: e().code, message: e().message })}
                        </p>
                      )}
                    </Show>
                    <Show when={shownItems()}>
                      {(items) => (
                        <div class="compaction-originals" role="group" aria-label={ct('compact.originals')}>
                          <p class="compaction-label">{ct('compact.originals')}</p>
                          <Show
                            when={items().length > 0}
                            fallback={<p class="compaction-label">{ct('compact.noOriginals')}</p>}
                          >
                            <For each={items()}>{(item) => props.renderItem(item)}</For>
                          </Show>
                        </div>
                      )}
                    </Show>
                  </>
                )}
              </Show>
            )}
          </Show>
        </div>
      </Show>
    </section>
  );
}

/** The compaction in flight (`/compact`): the divider's place, saying the summary is being written. */
export function CompactingNote(props: { focus?: string | undefined; ct: ChatTranslate }) {
  return (
    <section class="compaction compacting" role="status" aria-live="polite">
      <div class="compaction-rule">
        <span class="compaction-toggle">
          <span class="typing" aria-hidden="true" />
          <span class="compaction-title">{props.ct('compact.running')}</span>
        </span>
      </div>
      <Show when={props.focus}>
        <p class="compaction-meta">{props.ct('compact.focus', { focus: props.focus! })}</p>
      </Show>
    </section>
  );
}
