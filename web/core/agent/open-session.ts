// The thin stateful step around the loop: open (or create) a session, run `session_load` over the loaded history,
// and hand back the history plus a checkpoint sink for `runTurn`. The app and the headless runner both use it.
import { HarnessError } from '../contracts';
import type { HookPipeline } from '../hooks';
import type { Message } from '../contracts';
import { createCheckpointSink, type SessionInfo, type SessionStore } from '../sessions';
import type { CheckpointSink } from './types';

export interface OpenedSession {
  info: SessionInfo;
  history: Message[];
  sink: CheckpointSink & { readonly info: SessionInfo };
  resumed: boolean;
}

export async function openSessionForTurn(
  store: SessionStore,
  id: string,
  hooks: HookPipeline,
  signal: AbortSignal,
  options: { createTitle?: string; path?: string } = {},
): Promise<OpenedSession> {
  const existing = await store.get(id);
  if (!existing) {
    if (options.createTitle === undefined) {
      throw new HarnessError('E_SESSION_NOT_FOUND', `There is no session "${id}" in this workspace.`, { id });
    }
    const info = await store.create({ id, title: options.createTitle });
    return { info, history: [], sink: createCheckpointSink(store, info, [], options.path ?? id), resumed: false };
  }
  const loaded = await store.load(id);
  let history = loaded.messages;
  if (hooks.has('session_load'))
    history = (await hooks.run('session_load', { messages: history, session: id }, { signal })).messages;
  // The sink's prefix is what is stored; a session_load rewrite is saved as a reset on the next checkpoint.
  return {
    info: loaded.info,
    history,
    sink: createCheckpointSink(store, loaded.info, loaded.messages, options.path ?? id),
    resumed: true,
  };
}
