// What the chat puts outside its own section: the open session's title, menu and changes total in the workspace's
// top bar (one row of chrome above the conversation), and the Changes panel in the side panel's Changes tab.
import { createMemo, lazy, Show, Suspense, type Accessor, type Resource } from 'solid-js';
import { Portal } from 'solid-js/web';
import type { SessionChanges } from '../../core/page';
import type { AppState } from '../state/app-state';
import { ChangesTotal } from '../changes/changes-total';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import { SessionActions } from './session-actions';

// The Changes panel (and through it CodeMirror) loads when the side panel's Changes tab is first rendered.
const ChangesPanel = lazy(() => import('../changes/changes-panel'));

export function SessionHeader(props: {
  state: AppState;
  chat: ChatController;
  changes: Resource<SessionChanges | null>;
  slot: Accessor<HTMLElement | undefined>;
  ct: ChatTranslate;
}) {
  const s = props.state;
  const chat = props.chat;
  const title = createMemo(() => s.sessions().find((x) => x.id === chat.sessionId())?.title ?? props.ct('newSession'));
  return (
    <Show when={props.slot()}>
      {(slot) => (
        <Portal mount={slot()}>
          <SessionActions
            state={s}
            store={chat.agent.store}
            sessionId={chat.sessionId()}
            title={title()}
            busy={chat.busy()}
            messageCount={chat.messages().length}
            onOpen={(id) => s.selectSession(id)}
            usage={() => chat.sessionUsage()}
          />
          <ChangesTotal t={s.t} changes={props.changes} />
        </Portal>
      )}
    </Show>
  );
}

export function ChangesTab(props: {
  state: AppState;
  workspaceId: string;
  chat: ChatController;
  changes: Resource<SessionChanges | null>;
  slot: Accessor<HTMLElement | undefined> | undefined;
}) {
  const s = props.state;
  const chat = props.chat;
  return (
    <Show when={props.slot?.()}>
      {(slot) => (
        <Portal mount={slot()}>
          <Suspense>
            <ChangesPanel
              t={s.t}
              db={s.db}
              workspaceId={props.workspaceId}
              sessionId={chat.sessionId}
              undo={chat.undo}
              changes={props.changes}
              idle={() => !chat.busy() && chat.role() === 'writer'}
            />
          </Suspense>
        </Portal>
      )}
    </Show>
  );
}
