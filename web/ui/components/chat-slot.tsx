import { lazy, Show, Suspense, type Accessor } from 'solid-js';
import type { WorkspaceFs } from '../../core/contracts';
import type { WorkspaceRecord } from '../../core/page';
import type { AppState } from '../state/app-state';
import { ChatIcon } from './icons';

// The chat (agent loop, markdown, approvals) is loaded on demand: it is not needed for the first screen.
const ChatView = lazy(() => import('../chat/chat-view'));

/**
 * The main conversation area of a workspace. The chat view (sessions, the agent loop, tool approvals) mounts
 * here once folder access is granted. `fs` is undefined until then. `headerSlot` is the top bar's place for the
 * open session's title and menu.
 */
export interface ChatSlotProps {
  state: AppState;
  workspace: WorkspaceRecord;
  fs: WorkspaceFs | undefined;
  headerSlot: Accessor<HTMLElement | undefined>;
  /** The side panel's Changes tab, where the chat view puts the Changes panel. */
  changesSlot?: Accessor<HTMLElement | undefined>;
}

export function ChatSlot(props: ChatSlotProps) {
  const t = props.state.t;
  const placeholder = (text: string) => (
    <section class="chat-slot" aria-label={t('chat.title')} data-workspace-id={props.workspace.id}>
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
          <ChatView
            state={props.state}
            workspace={props.workspace}
            fs={fs}
            headerSlot={props.headerSlot}
            {...(props.changesSlot ? { changesSlot: props.changesSlot } : {})}
          />
        </Suspense>
      )}
    </Show>
  );
}
