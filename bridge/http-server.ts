// The request pipeline: Host → Origin → preflight → token → method → content type → body cap → handler.
// Every refusal happens before a handler runs, so a refused request can never start a process.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Pairing, TokenStore } from './auth';
import type { BridgeCore } from './bridge-core';
import { BridgeError, toErrorData } from './errors';
import {
  answerPreflight,
  corsHeaders,
  hostAllowed,
  isJsonContentType,
  originAllowed,
  proxyCorsHeaders,
} from './http-guard';
import { forwardProxy, parseProxyRequest } from './proxy';
import { MAX_JSON_DEPTH, PAIR_MAX_BODY_BYTES } from './limits';
import { readProxyEnvelope } from './proxy-envelope';
import { readJson } from './read-body';
import { collectGarbage, noteGarbage } from './reclaim';

export interface HttpOptions {
  core: BridgeCore;
  tokens: TokenStore;
  pairing: Pairing;
  allowOrigins: string[];
  proxyOrigins: string[];
  maxBodyBytes: number;
  port: () => number;
  /** True once the bridge is stopping: requests that arrive during the drain get 503 E_BRIDGE_CLOSED. */
  closing?: () => boolean;
  /** A request on this socket showed a valid token: its connection is no longer shed to make room for others. */
  authenticated?: (socket: Socket) => void;
  log?: (line: string) => void;
}

const STATUS: Record<string, number> = {
  E_HOST_DENIED: 403,
  E_ORIGIN_DENIED: 403,
  E_UNAUTHORIZED: 401,
  E_NOT_FOUND: 404,
  E_METHOD: 405,
  E_CONTENT_TYPE: 415,
  E_BODY_TOO_LARGE: 413,
  E_BODY_INVALID: 400,
  E_BODY_TOO_DEEP: 400,
  E_REQUEST_UNSERIALISABLE: 400,
  E_REQUEST_FRAME_TOO_LARGE: 413,
  E_TOOL_ARGUMENTS: 400,
  E_PATHS_INVALID: 400,
  E_PATHS_FIXED: 400,
  E_WORKSPACE_INVALID: 400,
  E_WORKSPACE_DENIED: 403,
  E_TOOL_UNKNOWN: 404,
  E_PROVIDER_MISSING: 404,
  E_PAIRING_WRONG: 401,
  E_PAIRING_USED: 410,
  E_PAIRING_EXPIRED: 410,
  E_PAIRING_LOCKED: 429,
  E_WORKER_TIMEOUT: 504,
  E_WORKER_QUEUE_TIMEOUT: 504,
  E_MCP_TIMEOUT: 504,
  E_WEB_TIMEOUT: 504,
  E_PROXY_ORIGIN_DENIED: 403,
  E_PROXY_HEADER_DENIED: 400,
  E_PROXY_INVALID: 400,
  E_WEB_URL_INVALID: 400,
  E_WEB_PRIVATE_ADDRESS: 403,
  E_BRIDGE_CLOSED: 503,
  E_REQUEST_ABORTED: 400,
};

type Route = {
  method: 'GET' | 'POST';
  auth: boolean;
  maxBodyBytes?: number;
  /** Reads the body instead of readJson (the proxy decodes its envelope as it arrives). */
  read?: (req: IncomingMessage, maxBytes: number) => Promise<Record<string, unknown>>;
  run: (
    body: Record<string, unknown>,
    req: IncomingMessage,
    res: ServerResponse,
    cors: Record<string, string>,
  ) => Promise<unknown>;
};

const NO_CORS: Record<string, string> = {};
const BASE_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};
const UPSTREAM = /^E_(WORKER|MCP|PROVIDER|TOOL_RESULT|PROXY|WEB)/;

/**
 * One JSON answer, written once with its Content-Length so the connection stays usable for the next request. The
 * body goes to `end` as a string, which node:http joins to the head: one buffer for the socket, not two.
 */
function send(
  res: ServerResponse,
  status: number,
  payload: unknown,
  cors: Record<string, string>,
  errorCode?: string,
  close?: boolean,
): void {
  if (res.headersSent) return void res.destroy();
  let body: string;
  try {
    body = JSON.stringify(payload);
  } catch (error) {
    // A worker answer nested beyond V8's stack (or otherwise unencodable): the caller gets a coded error, not a 500.
    const code = 'E_RESULT_UNSERIALISABLE';
    body = JSON.stringify({
      error: {
        code,
        message: `The answer could not be encoded as JSON (${(error as Error).message.slice(0, 200)}). The worker must return plain JSON nested at most ${MAX_JSON_DEPTH} levels deep.`,
      },
    });
    status = 502;
    errorCode = code;
  }
  const headers: Record<string, string | number> =
    cors === NO_CORS ? { ...BASE_HEADERS } : { ...cors, ...BASE_HEADERS };
  // A large body goes to the socket as one buffer of its own: given as a string, node:http would first join it to
  // the head (another whole copy) before encoding it.
  const bytes = body.length >= LARGE_BODY_CHARS ? Buffer.from(body, 'utf8') : undefined;
  headers['Content-Length'] = bytes ? bytes.byteLength : Buffer.byteLength(body, 'utf8');
  if (errorCode) headers['X-I-Bridge-Error'] = errorCode;
  if (close) headers.Connection = 'close';
  res.writeHead(status, headers);
  if (bytes) {
    noteGarbage(bytes.byteLength);
    res.end(bytes);
  } else {
    res.end(body, 'utf8');
  }
}

/** Small answers are joined to their head (one write); from this size on, the copy that join makes costs more. */
const LARGE_BODY_CHARS = 64 * 1024;

/** A refusal: the body of the refused request is discarded unread and the connection closed after the answer. */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  code: string,
  message: string,
  cors: Record<string, string> = NO_CORS,
): void {
  req.resume();
  send(res, STATUS[code] ?? 400, { error: { code, message } }, cors, code, true);
}

function fail(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  error: unknown,
  cors: Record<string, string>,
  log: HttpOptions['log'],
): void {
  const data = toErrorData(error);
  const status = STATUS[data.code] ?? (UPSTREAM.test(data.code) ? 502 : 500);
  if (status === 500) log?.(`internal error on ${path}: ${data.message}`);
  // A body refused before its end (too large, or malformed midway as the proxy envelope is read) is left unread:
  // the connection cannot carry a next request, so it closes after the answer.
  send(
    res,
    status,
    { error: BridgeError.isInstance(error) ? error.toJSON() : data },
    cors,
    data.code,
    data.code === 'E_BODY_TOO_LARGE' || !req.complete,
  );
}

/**
 * Reads the body and hands it to the route. A function of its own so that no frame of `serve` holds the parsed
 * body while the route awaits its worker: the route may let go of it once the worker frame is written.
 */
async function start(
  o: HttpOptions,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Record<string, string>,
): Promise<unknown> {
  const body = route.method === 'POST' ? await (route.read ?? readJson)(req, route.maxBodyBytes ?? o.maxBodyBytes) : {};
  collectGarbage(); // a safe point (reclaim.ts): the reader's copies are dead here
  return route.run(body, req, res, cors);
}

async function serve(
  o: HttpOptions,
  route: Route,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Record<string, string>,
): Promise<void> {
  try {
    const result = await start(o, route, req, res, cors);
    collectGarbage(); // and the worker's answer line, its text and the request are dead here
    if (result !== undefined) send(res, 200, result, cors);
  } catch (error) {
    fail(req, res, path, error, cors, o.log);
  }
}

export function createHandler(o: HttpOptions): RequestListener {
  const routes = new Map<string, Route>([
    [
      '/v1/pair',
      {
        method: 'POST',
        auth: false,
        maxBodyBytes: PAIR_MAX_BODY_BYTES,
        run: async (body) => ({ token: o.pairing.pair(body.code) }),
      },
    ],
    ['/v1/status', { method: 'GET', auth: true, run: async () => o.core.status() }],
    ['/v1/manifest', { method: 'GET', auth: true, run: async () => o.core.manifestView() }],
    ['/v1/tools/call', { method: 'POST', auth: true, run: (body) => o.core.callTool(body) }],
    ['/v1/hooks/run', { method: 'POST', auth: true, run: (body) => o.core.runHooks(body) }],
    ['/v1/provider/prepare', { method: 'POST', auth: true, run: (body) => o.core.provider('prepare', body) }],
    ['/v1/provider/parse', { method: 'POST', auth: true, run: (body) => o.core.provider('parse', body) }],
    [
      '/v1/proxy',
      {
        method: 'POST',
        auth: true,
        read: readProxyEnvelope,
        run: async (body, req, res) => {
          const request = parseProxyRequest(body, o.proxyOrigins);
          await forwardProxy(request, res, proxyCorsHeaders(req.headers.origin), o.maxBodyBytes, (abort) =>
            res.on('close', () => res.writableFinished || abort()),
          );
          return undefined; // already answered
        },
      },
    ],
  ]);

  return (req, res) => {
    const origin = req.headers.origin;
    if (o.closing?.()) {
      const cors = origin !== undefined && originAllowed(origin, o.allowOrigins) ? corsHeaders(origin) : NO_CORS;
      return refuse(req, res, 'E_BRIDGE_CLOSED', 'The bridge is shutting down. Start it again.', cors);
    }
    if (!hostAllowed(req.headers.host, o.port())) {
      return refuse(
        req,
        res,
        'E_HOST_DENIED',
        'The Host header is not this bridge on loopback. Use the URL i-bridge printed (a DNS name pointing here is refused).',
      );
    }
    if (!originAllowed(origin, o.allowOrigins)) {
      return refuse(
        req,
        res,
        'E_ORIGIN_DENIED',
        'This web origin is not allowed to use the bridge. Start i-bridge with --allow-origin for it.',
      );
    }
    const cors = origin === undefined ? NO_CORS : corsHeaders(origin);
    if (req.method === 'OPTIONS') {
      if (origin === undefined) return refuse(req, res, 'E_METHOD', 'Preflight requests need an Origin.', cors);
      return answerPreflight(req, res, origin);
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = routes.get(path);
    if (route?.auth !== false) {
      if (!o.tokens.check(req.headers.authorization)) {
        return refuse(
          req,
          res,
          'E_UNAUTHORIZED',
          'Missing or wrong bearer token. Pair with the code i-bridge printed (POST /v1/pair), or read the token from bridge.json.',
          cors,
        );
      }
      o.authenticated?.(req.socket);
    }
    if (!route) return refuse(req, res, 'E_NOT_FOUND', `No endpoint ${path}. See i-bridge --help.`, cors);
    if (req.method !== route.method) return refuse(req, res, 'E_METHOD', `${path} takes ${route.method}.`, cors);
    if (route.method === 'POST' && !isJsonContentType(req.headers['content-type'])) {
      return refuse(req, res, 'E_CONTENT_TYPE', 'POST bodies must be sent as Content-Type: application/json.', cors);
    }
    void serve(o, route, path, req, res, cors);
  };
}
