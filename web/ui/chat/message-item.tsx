// One saved or live item of the conversation: a user bubble (editable in place), an assistant message (thinking,
// text, tool calls, the model that answered), or the images a tool returned; message actions hang off each.
import { createSignal, For, Match, onMount, Show, Switch, type JSX } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import { lastPromptIndex, type ChatItem } from './chat-model';
import { MessageActions } from './message-actions';
import { Images, Markdown, Thinking } from './message-parts';
import { ToolCall } from './tool-card';

export function Item(props: { item: ChatItem; chat: ChatController; ct: ChatTranslate; onFork?: (index: number) => void }) {
  const ct = props.ct;
  return (
    <Switch>
      <Match when={props.item.kind === 'user' && props.item}>
        {(u) => {
          const [editing, setEditing] = createSignal(false);
          return (
              <Show
                when={editing()}
                fallback={
                  <UserBubble text={u().text} images={u().images} files={u().files} ct={ct}>
                    <MessageActions chat={props.chat} ct={ct} index={u().index} role="user" source={u().text} onEdit={() => setEditing(true)} onFork={props.onFork} />
                  </UserBubble>
                }
              >
                <EditMessage
                  text={u().text}
                  ct={ct}
                  busy={props.chat.busy()}
                  onCancel={() => setEditing(false)}
                  onSend={async (text) => {
                    setEditing(false);
                    await props.chat.editResend(u().index, text);
                  }}
                />
              </Show>
          );
        }}
      </Match>
      <Match when={props.item.kind === 'tool-images' && props.item}>{(t) => <Images urls={t().images} label={ct('toolImages', { id: t().callId })} />}</Match>
      <Match when={props.item.kind === 'assistant' && props.item}>
        {(a) => {
          // A step of the turn still running is not its answer, even if it is the last one saved so far.
          const answer = () => a().endsTurn === true && !(props.chat.busy() && a().index > lastPromptIndex(props.chat.messages()));
          return (
            <article class="msg msg-assistant" classList={{ 'msg-stopped': a().stopped === true }}>
              <Show when={a().thinking}>
                <Thinking text={a().thinking} ct={ct} />
              </Show>
              <Show when={a().text}>
                <Markdown text={a().text} ct={ct} />
              </Show>
              <For each={a().tools}>
                {(tool) => <ToolCall tool={tool} live={a().index < 0} running={props.chat.live()?.running[tool.id] === true} waiting={props.chat.approvals().some((p) => p.request.callId === tool.id)} ct={ct} />}
              </For>
              <Show when={a().stopped}>
                <p class="msg-stopped-note">{ct('msg.stopped')}</p>
              </Show>
              <Show when={a().index >= 0}>
                <MessageActions chat={props.chat} ct={ct} index={a().index} role="assistant" source={a().text} model={answer() ? a().model : undefined} floating={!answer()} onFork={props.onFork} />
              </Show>
            </article>
          );
        }}
      </Match>
    </Switch>
  );
}

export function UserBubble(props: { text: string; images: string[]; files?: string[]; ct: ChatTranslate; children?: JSX.Element }) {
  return (
    <article class="msg msg-user">
      <div class="msg-user-bubble">
        <div class="msg-user-text">{props.text}</div>
        <Show when={props.files?.length}>
          <ul class="msg-files" aria-label={props.ct('attachedFiles')}>
            <For each={props.files}>{(path) => <li class="msg-file" title={path}>@{path}</li>}</For>
          </ul>
        </Show>
        <Show when={props.images.length > 0}>
          <Images urls={props.images} label={props.ct('image')} />
        </Show>
      </div>
      {props.children}
    </article>
  );
}

/** The person's message in an editor: Save & send starts the turn again from it (Enter too; Esc cancels). */
function EditMessage(props: { text: string; ct: ChatTranslate; busy: boolean; onCancel: () => void; onSend: (text: string) => Promise<void> }) {
  const ct = props.ct;
  const [text, setText] = createSignal(props.text);
  let area: HTMLTextAreaElement | undefined;
  onMount(() => {
    area?.focus();
    area?.setSelectionRange(area.value.length, area.value.length);
  });
  const send = () => {
    const value = text().trim();
    if (value && !props.busy) void props.onSend(value);
  };
  return (
    <article class="msg msg-user msg-editing">
      <textarea
        ref={(el) => (area = el)}
        class="msg-edit"
        aria-label={ct('msg.editLabel')}
        rows={Math.min(12, Math.max(2, text().split('\n').length))}
        value={text()}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            props.onCancel();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <div class="msg-edit-actions">
        <button type="button" class="button small ghost" onClick={() => props.onCancel()}>
          {ct('msg.cancel')}
        </button>
        <button type="button" class="button small primary" disabled={props.busy || text().trim() === ''} onClick={send}>
          {ct('msg.saveSend')}
        </button>
      </div>
    </article>
  );
}
