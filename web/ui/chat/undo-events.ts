// The chat's record of undo events for the open session: rewinds (added by the rewind dialog, which knows the mode
// and the prompt) and reverts or redos from anywhere else (the Changes panel), found as new revert groups in the
// checkpoint records whenever `chat.undo.epoch()` moves. Kept per session in IndexedDB (`metrics`,
// [workspaceId, 'undo-events:<session>']) so the lines survive a reload; deleting the workspace deletes them.
import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import type { HarnessDb } from '../../core/page';
import type { ChatController } from './chat-controller';
import { anchorOf, MAX_EVENTS, validEvents, type UndoEvent } from './rewind-model';

type NewEvent = UndoEvent extends infer E ? (E extends UndoEvent ? Omit<E, 'id' | 'at' | 'anchor'> : never) : never;

export interface UndoEvents {
  events: Accessor<UndoEvent[]>;
  /** Revert groups in effect (a redo or the panel's "Undo revert" takes one out): only these offer Redo. */
  active: Accessor<ReadonlySet<string>>;
  /** Records an event after the conversation's last prompt as it is now. */
  add(event: NewEvent): void;
  /** Runs a rewind: its revert group is said by the rewind's own event, not also as a plain "Reverted". */
  during<T>(work: () => Promise<T>): Promise<T>;
}

const key = (session: string) => `undo-events:${session}`;

export function createUndoEvents(o: {
  db: HarnessDb;
  workspaceId: string;
  chat: Pick<ChatController, 'sessionId' | 'messages' | 'undo'>;
}): UndoEvents {
  const [events, setEvents] = createSignal<UndoEvent[]>([]);
  const [active, setActive] = createSignal<ReadonlySet<string>>(new Set());
  /** Groups already said or there before the session was opened here (those have no place in the conversation). */
  let seen: Set<string> | null = null;
  let holding = 0;
  let loadedFor: string | null = null;

  const save = (session: string, list: UndoEvent[]) =>
    // A lost event line is a cosmetic loss (the revert itself is in the checkpoint records): not worth a toast.
    void o.db.put('metrics', { workspaceId: o.workspaceId, name: key(session), events: list }).catch(() => undefined);

  function push(session: string, event: NewEvent) {
    const full = {
      ...event,
      id: crypto.randomUUID(),
      at: Date.now(),
      anchor: anchorOf(o.chat.messages()),
    } as UndoEvent;
    const next = [...events(), full].slice(-MAX_EVENTS);
    setEvents(next);
    save(session, next);
  }

  async function refresh(session: string) {
    const changes = await o.chat.undo.changes().catch(() => null);
    if (!changes || o.chat.sessionId() !== session || loadedFor !== session) return;
    setActive(new Set(changes.reverts.filter((r) => r.active).map((r) => r.group)));
    if (seen === null || holding > 0) {
      seen = new Set([...(seen ?? []), ...changes.reverts.map((r) => r.group)]);
      return;
    }
    for (const r of changes.reverts) {
      if (seen.has(r.group)) continue;
      seen.add(r.group);
      const paths = [...new Set(r.paths)];
      push(session, {
        kind: r.tool === 'redo' ? 'redo' : 'revert',
        group: r.group,
        files: paths.length,
        ...(paths.length === 1 ? { path: paths[0]! } : {}),
      });
    }
  }

  createEffect(
    on(o.chat.sessionId, (session) => {
      seen = null;
      loadedFor = null;
      setEvents([]);
      setActive(new Set<string>());
      if (!session) return;
      void o.db
        .get('metrics', [o.workspaceId, key(session)])
        .catch(() => undefined)
        .then((record) => {
          if (o.chat.sessionId() !== session) return;
          loadedFor = session;
          setEvents(validEvents(record?.events));
          void refresh(session);
        });
    }),
  );
  createEffect(
    on(
      o.chat.undo.epoch,
      () => {
        const session = o.chat.sessionId();
        if (session && loadedFor === session) void refresh(session);
      },
      { defer: true },
    ),
  );

  return {
    events,
    active,
    add(event) {
      const session = o.chat.sessionId();
      if (!session) return;
      if ('group' in event && event.group) seen?.add(event.group);
      push(session, event);
      void refresh(session);
    },
    async during(work) {
      holding++;
      try {
        return await work();
      } finally {
        holding--;
      }
    },
  };
}
