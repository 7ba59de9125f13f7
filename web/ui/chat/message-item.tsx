// One saved or live item of the conversation: a user bubble (editable in place), an assistant message (thinking,
// text, tool calls, the model that answered, its usage), the images a tool returned, a compaction divider or a
// context item; message actions hang off the person's and the agent's messages. `readOnly` items (the originals a
// compaction folded) have no actions: they are not in the session's history any more.
import { createSignal, For, Match, onMount, Show, Switch, type JSX } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import { lastPromptIndex, type ChatItem } from './chat-model';
import { CompactionDivider } from './compaction-divider';
import { ContextItem } from './context-item';
import { failureHeadline } from './failure-words';
import { MessageActions } from './message-actions';
import { MessageUsage } from './message-usage';
import { Images, Markdown, Thinking } from './message-parts';
import { ToolCall } from './tool-card';

export function Item(props: {
  item: ChatItem;
  chat: ChatController;
  ct: ChatTranslate;
  onFork?: (index: number) => void;
  readOnly?: boolean;
}) {
  const ct = props.ct;
  return (
    <Switch>
      <Match when={props.item.kind === 'user' && props.readOnly && props.item}>
        {(u) => <UserBubble text={u().text} images={u().images} files={u().files} ct={ct} />}
      </Match>
      <Match when={props.item.kind === 'user' && props.item}>
        {(u) => {
          const [editing, setEditing] = createSignal(false);
          return (
            <Show
              when={editing()}
              fallback={
                <UserBubble text={u().text} images={u().images} files={u().files} ct={ct}>
                  {/* A failed prompt the conversation went on after (the last one has the failure block below it). */}
                  <Show when={u().failed && u().index < props.chat.messages().length - 1 && u().failed}>
                    {(f) => (
                      <p class="msg-unanswered">
                        {ct('fail.notAnswered')} — {ct(failureHeadline(f()))}
                      </p>
                    )}
                  </Show>
                  <MessageActions
                    chat={props.chat}
                    ct={ct}
                    index={u().index}
                    role="user"
                    source={u().text}
                    onEdit={() => setEditing(true)}
                    onFork={props.onFork}
                  />
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
      <Match when={props.item.kind === 'tool-images' && props.item}>
        {(t) => <Images urls={t().images} label={ct('toolImages', { id: t().callId })} />}
      </Match>
      <Match when={props.item.kind === 'compaction' && props.item}>
        {(c) => (
          <CompactionDivider
            summary={c().summary}
            info={c().info}
            ct={ct}
            folded={(id) => props.chat.foldedMessages(id)}
            renderItem={(item) => <Item item={item} chat={props.chat} ct={ct} readOnly />}
          />
        )}
      </Match>
      <Match when={props.item.kind === 'context' && props.item}>
        {(c) => (
          <ContextItem
            context={c().context}
            text={c().text}
            source={c().source}
            count={c().count}
            truncated={c().truncated}
            ct={ct}
          />
        )}
      </Match>
      <Match when={props.item.kind === 'assistant' && props.item}>
        {(a) => {
          // A step of the turn still running is not its answer, even if it is the last one saved so far.
          const answer = () =>
            a().endsTurn === true && !(props.chat.busy() && a().index > lastPromptIndex(props.chat.messages()));
          return (
            <article class="msg msg-assistant" classList={{ 'msg-stopped': a().stopped === true }}>
              <Show when={a().thinking}>
                <Thinking text={a().thinking} ct={ct} />
              </Show>
              <Show when={a().text}>
                <Markdown text={a().text} ct={ct} />
              </Show>
              <For each={a().tools}>
                {(tool) => (
                  <ToolCall
                    tool={tool}
                    live={a().index < 0}
                    running={!props.readOnly && props.chat.live()?.running[tool.id] === true}
                    waiting={!props.readOnly && props.chat.approvals().some((p) => p.request.callId === tool.id)}
                    ct={ct}
                  />
                )}
              </For>
              <Show when={a().stopped}>
                <p class="msg-stopped-note">{ct('msg.stopped')}</p>
              </Show>
              <Show when={a().index >= 0 && !props.readOnly}>
                <Show
                  when={answer() && a().turnUsage}
                  fallback={
                    <MessageActions
                      chat={props.chat}
                      ct={ct}
                      index={a().index}
                      role="assistant"
                      source={a().text}
                      model={answer() ? a().model : undefined}
                      floating={!answer()}
                      onFork={props.onFork}
                    />
                  }
                >
                  {(usage) => (
                    <div class="msg-foot">
                      <MessageUsage steps={usage()} prices={props.chat.prices()} ct={ct} />
                      <MessageActions
                        chat={props.chat}
                        ct={ct}
                        index={a().index}
                        role="assistant"
                        source={a().text}
                        model={a().model}
                        onFork={props.onFork}
                      />
                    </div>
                  )}
                </Show>
              </Show>
            </article>
          );
        }}
      </Match>
    </Switch>
  );
}

export function UserBubble(props: {
  text: string;
  images: string[];
  files?: string[];
  ct: ChatTranslate;
  children?: JSX.Element;
}) {
  return (
    <article class="msg msg-user">
      <div class="msg-user-bubble">
        <div class="msg-user-text">{props.text}</div>
        <Show when={props.files?.length}>
          <ul class="msg-files" aria-label={props.ct('attachedFiles')}>
            <For each={props.files}>
              {(path) => (
                <li class="msg-file" title={path}>
                  @{path}
                </li>
              )}
            </For>
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
function EditMessage(props: {
  text: string;
  ct: ChatTranslate;
  busy: boolean;
  onCancel: () => void;
  onSend: (text: string) => Promise<void>;
}) {
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
