// Bounds the sockets one listener holds. node:http's own `maxConnections` refuses the newest connection once the
// limit is reached, so a process that opens that many idle sockets (re-opening each one the headers timeout closes)
// would lock the paired app out for good. Here a new connection at the limit closes the oldest connection that has
// not yet presented a valid token instead: the attacker's own sockets go first, and a connection that has
// authenticated is never closed to make room. The app's fresh connection is at risk only if the attacker opens a
// whole limit's worth of sockets between its connect and its first request (a few milliseconds on loopback).
// `server.maxConnections` stays as a hard backstop on descriptors (sockets being destroyed still count there).
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimit {
  /** Called when a request on `socket` passed the token check: it is no longer evicted to make room. */
  authenticated(socket: Socket): void;
  /** Sockets open now (pre-auth and authenticated). */
  readonly open: number;
}

export function limitConnections(server: Server, max: number, log?: (line: string) => void): ConnectionLimit {
  // Insertion order is age order: the first entry is the oldest unauthenticated socket.
  const preAuth = new Set<Socket>();
  const trusted = new Set<Socket>();
  let warned = false;
  server.maxConnections = max * 2;
  server.on('connection', (socket: Socket) => {
    preAuth.add(socket);
    socket.once('close', () => {
      preAuth.delete(socket);
      trusted.delete(socket);
    });
    if (preAuth.size + trusted.size <= max) return;
    const oldest = preAuth.values().next().value as Socket;
    preAuth.delete(oldest);
    oldest.destroy();
    if (!warned) {
      warned = true;
      log?.(
        `more than ${max} connections at once: closing the oldest ones that have not shown a token (someone may be flooding the bridge).`,
      );
    }
  });
  return {
    authenticated(socket) {
      if (preAuth.delete(socket)) trusted.add(socket);
    },
    get open() {
      return preAuth.size + trusted.size;
    },
  };
}
