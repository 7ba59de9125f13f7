import { lazy, Show, Suspense } from 'solid-js';
import type { WorkspaceFs, WorkspaceRecord } from '../../core';
import type { AppState } from '../state/app-state';
import { ChatIcon } from './icons';

// The chat (agent loop, markdown, approvals) is loaded on demand: it is not needed for the first screen.
const ChatView = lazy(() => import('../chat/chat-view'));

/**
 * The main conversation area of a workspace. The chat view (sessions, the agent loop, tool approvals) mounts
 * here once folder access is granted. `fs` is undefined until then.
 */
export interface ChatSlotProps {
  state: AppState;
  workspace: WorkspaceRecord;
  fs: WorkspaceFs | undefined;
}

export function ChatSlot(props: ChatSlotProps) {
  const t = props.state.t;
  const placeholder = (text: string) => (
    <section class="chat-slot panel" aria-labelledby="chat-title" data-workspace-id={props.workspace.id}>
      <header class="panel-header">
        <h2 id="chat-title">{t('chat.title')}</h2>
      </header>
      <div class="empty-state">
        <ChatIcon />
        <p>{text}</p>
      </div>
    </section>
  );
  return (
    <Show when={props.fs} keyed fallback={placeholder(t('chat.empty'))}>
      {(fs) => (
        <Suspense fallback={placeholder(t('chat.empty'))}>
          <ChatView state={props.state} workspace={props.workspace} fs={fs} />
        </Suspense>
      )}
    </Show>
  );
}
