// One saved or live item of the conversation: a user bubble, an assistant message (thinking, text, tool calls), or
// the images a tool returned; message actions hang off it.
import { For, Match, Show, Switch, type JSX } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import type { ChatItem } from './chat-model';
import { Images, Markdown, Thinking, ToolCall } from './message-parts';

export function Item(props: { item: ChatItem; chat: ChatController; ct: ChatTranslate; onFork?: (index: number) => void }) {
  const ct = props.ct;
  const forkButton = (index: number) => (
    <Show when={props.onFork && !props.chat.busy()}>
      <button type="button" class="msg-action" onClick={() => props.onFork?.(index)}>
        {ct('fork')}
      </button>
    </Show>
  );
  return (
    <Switch>
      <Match when={props.item.kind === 'user' && props.item}>
        {(u) => (
          <UserBubble text={u().text} images={u().images} ct={ct}>
            {forkButton(u().index)}
          </UserBubble>
        )}
      </Match>
      <Match when={props.item.kind === 'tool-images' && props.item}>{(t) => <Images urls={t().images} label={ct('toolImages', { id: t().callId })} />}</Match>
      <Match when={props.item.kind === 'assistant' && props.item}>
        {(a) => (
          <article class="msg msg-assistant">
            <Show when={a().thinking}>
              <Thinking text={a().thinking} ct={ct} />
            </Show>
            <Show when={a().text}>
              <Markdown text={a().text} />
            </Show>
            <For each={a().tools}>{(tool) => <ToolCall tool={tool} running={props.chat.live()?.running[tool.id] === true} waiting={props.chat.approvals().some((p) => p.request.callId === tool.id)} ct={ct} />}</For>
            <Show when={a().index >= 0}>{forkButton(a().index)}</Show>
          </article>
        )}
      </Match>
    </Switch>
  );
}

export function UserBubble(props: { text: string; images: string[]; ct: ChatTranslate; children?: JSX.Element }) {
  return (
    <article class="msg msg-user">
      <div class="msg-user-text">{props.text}</div>
      <Show when={props.images.length > 0}>
        <Images urls={props.images} label={props.ct('image')} />
      </Show>
      {props.children}
    </article>
  );
}

