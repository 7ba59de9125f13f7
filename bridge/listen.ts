// The HTTP listeners: the same handler on 127.0.0.1 and ::1 (same port; a host without IPv6 is tolerated), each
// with the pre-authentication bounds of limits.ts: head and request deadlines, keep-alive idle time, and a
// connection cap that sheds unauthenticated sockets first (connection-limit.ts).
import { createServer, type RequestListener, type Server } from 'node:http';
import { limitConnections, type ConnectionLimit } from './connection-limit';
import { BridgeError } from './errors';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_MS, MAX_CONNECTIONS, REQUEST_TIMEOUT_MS } from './limits';

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveMs: number;
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveMs: KEEP_ALIVE_MS,
  maxConnections: MAX_CONNECTIONS,
};

export interface Listening {
  servers: Server[];
  port: number;
  limits: ConnectionLimit[];
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
export const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
/**
 * Shutdown: stop accepting, let answers already decided (E_BRIDGE_CLOSED for calls in flight) reach their clients,
 * then drop what is left after `graceMs` (a long proxy stream, say).
 */
export const drainServer = (server: Server, graceMs: number) =>
  new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 25);
    const last = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(last);
      resolve();
    });
  });
export const SHUTDOWN_DRAIN_MS = 500;

/** The listen errors a person can meet, as codes that say what to do; anything else is passed on. */
function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new BridgeError(
      'E_PORT_IN_USE',
      `Port ${port} is already in use on ${host} (another i-bridge?). Stop that program, or pick another port with --port (0 picks a free one).`,
      { port, host },
    );
  }
  if (code === 'EACCES') {
    return new BridgeError(
      'E_PORT_DENIED',
      `Port ${port} on ${host} needs privileges this user lacks. Pick a port above 1023 with --port.`,
      { port, host },
    );
  }
  return error;
}

const NO_IPV6 = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EINVAL']);
function createHttpServer(
  handler: RequestListener,
  limits: ServerLimits,
  log?: (line: string) => void,
): { server: Server; limit: ConnectionLimit } {
  const server = createServer(
    {
      noDelay: true,
      keepAlive: true,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often node:http looks for expired heads and requests: a fraction of the shortest deadline.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveMs;
  // No socket inactivity timeout once a request is in: a proxied model answer may be silent for minutes, and every
  // other call has its own deadline (15 s worker, 8 s web_fetch).
  server.timeout = 0;
  return { server, limit: limitConnections(server, limits.maxConnections, log) };
}

export async function listenBoth(
  handler: RequestListener,
  port: number,
  limits: ServerLimits = DEFAULT_SERVER_LIMITS,
  log?: (line: string) => void,
): Promise<Listening> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v4 = createHttpServer(handler, limits, log);
    let actual: number;
    try {
      actual = await listen(v4.server, port, '127.0.0.1');
    } catch (error) {
      throw listenError(error, port, '127.0.0.1');
    }
    const v6 = createHttpServer(handler, limits, log);
    try {
      await listen(v6.server, actual, '::1');
      return { servers: [v4.server, v6.server], port: actual, limits: [v4.limit, v6.limit] };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_IPV6.has(code)) return { servers: [v4.server], port: actual, limits: [v4.limit] };
      await closeServer(v4.server);
      if (code !== 'EADDRINUSE' || port !== 0) {
        throw new BridgeError('E_PORT_IN_USE', `Port ${actual} is taken on ::1 (${code}). Pick another with --port.`);
      }
    }
  }
  throw new BridgeError('E_PORT_IN_USE', 'Could not find a port free on both 127.0.0.1 and ::1. Pass --port.');
}
