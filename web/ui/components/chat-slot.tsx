import type { WorkspaceFs, WorkspaceRecord } from '../../core';
import type { AppState } from '../state/app-state';
import { ChatIcon } from './icons';

/**
 * The main conversation area of a workspace. The chat view (sessions, the agent loop, tool approvals) mounts
 * here: replace this component's body, keeping its props. `fs` is undefined until folder access is granted.
 */
export interface ChatSlotProps {
  state: AppState;
  workspace: WorkspaceRecord;
  fs: WorkspaceFs | undefined;
}

export function ChatSlot(props: ChatSlotProps) {
  const t = props.state.t;
  return (
    <section class="chat-slot panel" aria-labelledby="chat-title" data-workspace-id={props.workspace.id}>
      <header class="panel-header">
        <h2 id="chat-title">{t('chat.title')}</h2>
      </header>
      <div class="empty-state">
        <ChatIcon />
        <p>{t('chat.empty')}</p>
      </div>
    </section>
  );
}
