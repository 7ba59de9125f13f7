// The actions under a message: Copy (its Markdown source) on every message, Edit and Rewind to here on the person's,
// Regenerate on the agent's, Fork from here on both; and, quietly, the model that answered when it is not the one the
// composer shows (the model label once: an answer names its model only where it differs). Shown on hover or focus,
// always on touch screens (chat.css). Edit, Regenerate and Rewind change the session, so they wait while a turn runs.
import { createContext, Show, useContext } from 'solid-js';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import { CopyButton } from './copy-button';
import { EditIcon, ForkIcon, RegenerateIcon } from './message-icons';
import { RewindContext, RewindIcon } from './rewind-dialog';
import { isPrompt } from './rewind-model';

/** The model the composer shows (the next turn's), so an answer from that model need not name it again. */
export const ComposerModelContext = createContext<() => string | null>(() => null);

export function MessageActions(props: {
  chat: ChatController;
  ct: ChatTranslate;
  /** The message's index in the session; negative for a message of the turn in flight (no actions but Copy). */
  index: number;
  role: 'user' | 'assistant';
  source: string;
  model?: string | undefined;
  onEdit?: () => void;
  onFork?: ((index: number) => void) | undefined;
  /** A step inside a turn (not its answer): the actions float over the message on hover instead of taking a row. */
  floating?: boolean;
}) {
  const ct = props.ct;
  // Actions that write the session: not while a turn runs, nor in a tab that only follows another tab's writing.
  const idle = () => props.index >= 0 && !props.chat.busy() && props.chat.role() === 'writer';
  const rewind = useContext(RewindContext);
  const composerModel = useContext(ComposerModelContext);
  // Only a message the person typed can be rewound to (the harness's own user messages carry `_meta`).
  const rewindable = () =>
    props.role === 'user' && rewind !== undefined && idle() && isPrompt(props.chat.messages()[props.index]);
  return (
    <div
      class="msg-actions"
      classList={{ floating: props.floating === true }}
      role="group"
      aria-label={ct('msg.actions')}
    >
      <Show when={props.model && props.model !== composerModel()}>
        <span class="msg-model" title={ct('msg.model', { model: props.model! })}>
          {props.model}
        </span>
      </Show>
      <Show when={props.source}>
        <CopyButton
          class="msg-action"
          text={() => props.source}
          label={ct('msg.copy')}
          copied={ct('msg.copied')}
          failed={ct('msg.copyFailed')}
        />
      </Show>
      <Show when={props.role === 'user' && idle() && props.onEdit}>
        <button
          type="button"
          class="msg-action"
          aria-label={ct('msg.edit')}
          title={ct('msg.edit')}
          onClick={() => props.onEdit?.()}
        >
          <EditIcon />
        </button>
      </Show>
      <Show when={rewindable()}>
        <button
          type="button"
          class="msg-action"
          aria-label={ct('rewind.action')}
          title={ct('rewind.action')}
          onClick={() => rewind?.open(props.index, props.source)}
        >
          <RewindIcon />
        </button>
      </Show>
      <Show when={props.role === 'assistant' && idle()}>
        <button
          type="button"
          class="msg-action"
          aria-label={ct('msg.regenerate')}
          title={ct('msg.regenerate')}
          onClick={() => void props.chat.regenerate(props.index)}
        >
          <RegenerateIcon />
        </button>
      </Show>
      <Show when={idle() && props.onFork}>
        <button
          type="button"
          class="msg-action"
          aria-label={ct('msg.fork')}
          title={ct('msg.fork')}
          onClick={() => props.onFork?.(props.index)}
        >
          <ForkIcon />
        </button>
      </Show>
    </div>
  );
}
