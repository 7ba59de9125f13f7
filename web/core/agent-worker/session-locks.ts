// One writer per session across tabs (Web Locks, one lock per session id). A tab holds the lock of the session it
// has open for as long as it has it open; another tab opening it becomes a reader until it takes over (`steal`),
// which makes the first tab a reader. A reader of a session it has open (`follow`) also waits in the lock's queue,
// so when the writing tab closes the session (or the tab), the reader becomes the writer by itself. Where the Locks
// API is absent (Node tests, old browsers) every claim is a writer, and the store's optimistic commit check
// (E_SESSION_CONFLICT) still keeps two writers from corrupting a log.
import type { SessionRole } from './protocol';

interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>;
}

export interface SessionLocks {
  /** `follow`: the session is open here; a reader waits for the lock and becomes the writer when it frees. */
  claim(sessionId: string, options?: { steal?: boolean; follow?: boolean }): Promise<SessionRole>;
  /** Whether this tab holds the session's lock now. */
  holds(sessionId: string): boolean;
  /** Gives the session's lock back (the tab closed the session); resolves once the lock is free. */
  release(sessionId: string): Promise<void>;
}

export const lockName = (sessionId: string) => `i:session:${sessionId}`;

export function createSessionLocks(
  onRole: (sessionId: string, role: SessionRole) => void,
  locks: LockManagerLike | undefined = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks,
): SessionLocks {
  /** Held locks: calling the function releases the lock; the promise settles when it is free. */
  const held = new Map<string, () => void>();
  const settled = new Map<string, Promise<unknown>>();

  /** Claims in flight: a second claim of the same session shares the first (two requests would make one a reader). */
  const pending = new Map<string, Promise<SessionRole>>();
  /** Sessions open here (followed), and the queued lock request of each one this tab is a reader of. */
  const following = new Set<string>();
  const waiting = new Map<string, AbortController>();

  /** Becomes a reader of a followed session: queue for its lock (granted when the writer lets go). */
  function lost(sessionId: string): void {
    onRole(sessionId, 'reader');
    wait(sessionId);
  }

  function wait(sessionId: string): void {
    if (!locks || !following.has(sessionId) || waiting.has(sessionId) || held.has(sessionId)) return;
    const abort = new AbortController();
    waiting.set(sessionId, abort);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const queued = locks.request(lockName(sessionId), { signal: abort.signal }, async () => {
      waiting.delete(sessionId);
      held.set(sessionId, release);
      onRole(sessionId, 'writer');
      await released;
    });
    settled.set(
      sessionId,
      queued.catch(() => undefined),
    );
    queued.then(undefined, () => {
      if (waiting.get(sessionId) === abort) waiting.delete(sessionId);
      if (held.get(sessionId) === release) {
        held.delete(sessionId);
        lost(sessionId);
      }
    });
  }

  function claim(sessionId: string, options: { steal?: boolean; follow?: boolean } = {}): Promise<SessionRole> {
    if (options.follow) following.add(sessionId);
    if (held.has(sessionId)) return Promise.resolve('writer');
    if (options.steal) {
      waiting.get(sessionId)?.abort();
      waiting.delete(sessionId);
    }
    const inFlight = pending.get(sessionId);
    if (inFlight && !options.steal) return inFlight;
    const result = request(sessionId, options).then((role) => {
      if (role === 'reader') wait(sessionId);
      return role;
    });
    void result.finally(() => {
      if (pending.get(sessionId) === result) pending.delete(sessionId);
    });
    pending.set(sessionId, result);
    return result;
  }

  function request(sessionId: string, options: { steal?: boolean }): Promise<SessionRole> {
    if (!locks) {
      held.set(sessionId, () => undefined);
      return Promise.resolve('writer');
    }
    return new Promise<SessionRole>((resolve, reject) => {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const request = locks.request(
        lockName(sessionId),
        options.steal ? { steal: true } : { ifAvailable: true },
        async (lock) => {
          if (!lock) return resolve('reader');
          held.set(sessionId, release);
          resolve('writer');
          await released;
        },
      );
      settled.set(
        sessionId,
        request.catch(() => undefined),
      );
      request.then(
        () => undefined,
        (error: unknown) => {
          // Another tab took the session over (steal): this tab is its reader from now on.
          if (held.get(sessionId) === release) {
            held.delete(sessionId);
            lost(sessionId);
          } else reject(error);
        },
      );
    });
  }

  return {
    claim,
    holds: (sessionId) => held.has(sessionId),
    async release(sessionId) {
      following.delete(sessionId);
      waiting.get(sessionId)?.abort();
      waiting.delete(sessionId);
      const release = held.get(sessionId);
      held.delete(sessionId);
      release?.();
      if (release) await settled.get(sessionId);
      settled.delete(sessionId);
    },
  };
}
