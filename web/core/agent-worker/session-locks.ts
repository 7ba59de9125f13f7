// One writer per session across tabs (Web Locks, one lock per session id). A tab holds the lock of the session it
// has open for as long as it has it open; another tab opening it becomes a reader until it takes over (`steal`),
// which makes the first tab a reader. Where the Locks API is absent (Node tests, old browsers) every claim is a
// writer, and the store's optimistic commit check (E_SESSION_CONFLICT) still keeps two writers from corrupting a log.
import type { SessionRole } from './protocol';

interface LockManagerLike {
  request(name: string, options: { ifAvailable?: boolean; steal?: boolean }, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export interface SessionLocks {
  claim(sessionId: string, options?: { steal?: boolean }): Promise<SessionRole>;
  /** Whether this tab holds the session's lock now. */
  holds(sessionId: string): boolean;
  /** Gives the session's lock back (the tab closed the session); resolves once the lock is free. */
  release(sessionId: string): Promise<void>;
}

export const lockName = (sessionId: string) => `i:session:${sessionId}`;

export function createSessionLocks(onLost: (sessionId: string) => void, locks: LockManagerLike | undefined = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks): SessionLocks {
  /** Held locks: calling the function releases the lock; the promise settles when it is free. */
  const held = new Map<string, () => void>();
  const settled = new Map<string, Promise<unknown>>();

  /** Claims in flight: a second claim of the same session shares the first (two requests would make one a reader). */
  const pending = new Map<string, Promise<SessionRole>>();

  function claim(sessionId: string, options: { steal?: boolean } = {}): Promise<SessionRole> {
    if (held.has(sessionId)) return Promise.resolve('writer');
    const inFlight = pending.get(sessionId);
    if (inFlight && !options.steal) return inFlight;
    const result = request(sessionId, options).finally(() => {
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
      const request = locks.request(lockName(sessionId), options.steal ? { steal: true } : { ifAvailable: true }, async (lock) => {
        if (!lock) return resolve('reader');
        held.set(sessionId, release);
        resolve('writer');
        await released;
      });
      settled.set(sessionId, request.catch(() => undefined));
      request.then(
        () => undefined,
        (error: unknown) => {
          // Another tab took the session over (steal): this tab is its reader from now on.
          if (held.get(sessionId) === release) {
            held.delete(sessionId);
            onLost(sessionId);
          } else reject(error);
        },
      );
    });
  }

  return {
    claim,
    holds: (sessionId) => held.has(sessionId),
    async release(sessionId) {
      const release = held.get(sessionId);
      held.delete(sessionId);
      release?.();
      if (release) await settled.get(sessionId);
      settled.delete(sessionId);
    },
  };
}
