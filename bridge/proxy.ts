// `POST /v1/proxy {url, method, headers, body}`: lets the browser reach a provider that sends no CORS headers.
// Only origins on the bridge's own allowlist (provider base URLs from bridge.json), redirects refused, routing and
// transport headers refused, request and response each capped at 48 MiB, the response streamed back as it
// arrives (SSE keeps working). No environment proxies: node:http never reads HTTP_PROXY.
// Memory: the request's `body` arrives already decoded into one buffer (proxy-envelope.ts) and goes upstream as is;
// the answer passes through chunk by chunk with backpressure, never held whole.
import http from 'node:http';
import https from 'node:https';
import type { ServerResponse } from 'node:http';
import { BridgeError } from './errors';
import { SpooledBody } from './proxy-envelope';

/** The bytes of a request body, in order (one piece when the client sent a Content-Length). */
export interface ProxyBody {
  readonly pieces: readonly Buffer[];
  readonly byteLength: number;
}

export interface ProxyRequest {
  url: URL;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body: ProxyBody | undefined;
}

const FORBIDDEN =
  /^(host|content-length|transfer-encoding|connection|keep-alive|upgrade|te|trailer|expect|proxy-.*|x-forwarded-.*|forwarded|origin|referer|cookie)$/i;
const FORWARD_BACK =
  /^(content-type|retry-after|retry-after-ms|request-id|x-request-id|openai-.*|anthropic-.*|x-ratelimit-.*)$/i;

/**
 * Index of the first character node:http would refuse in a header value (it throws ERR_INVALID_CHAR, a 500 if it
 * reached the request): anything but tab, 0x20–0x7E and 0x80–0xFF. -1 when the value is sendable.
 */
function badHeaderChar(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!(c === 9 || (c >= 0x20 && c <= 0x7e) || (c >= 0x80 && c <= 0xff))) return i;
  }
  return -1;
}

export function parseProxyRequest(body: Record<string, unknown>, allowedOrigins: readonly string[]): ProxyRequest {
  for (const k of Object.keys(body)) {
    if (!['url', 'method', 'headers', 'body'].includes(k))
      throw new BridgeError('E_PROXY_INVALID', `At ${k}: unknown field. Send {url, method, headers, body}.`);
  }
  let url: URL;
  try {
    url = new URL(String(body.url));
  } catch {
    throw new BridgeError('E_PROXY_INVALID', 'At url: expected an absolute https URL.');
  }
  // Before the allowlist: every non-http(s) URL has the origin "null", which must never match anything.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BridgeError(
      'E_PROXY_INVALID',
      `At url: the proxy forwards only http and https URLs, not ${url.protocol.slice(0, 40)}. Use the provider's https base URL.`,
    );
  }
  if (!allowedOrigins.includes(url.origin) || url.username || url.password) {
    throw new BridgeError(
      'E_PROXY_ORIGIN_DENIED',
      `${url.origin} is not on the bridge's proxy allowlist. Add it to proxy_origins in bridge.json.`,
      { origin: url.origin },
    );
  }
  const method = (body.method ?? 'POST') as string;
  if (method !== 'GET' && method !== 'POST' && method !== 'DELETE')
    throw new BridgeError('E_PROXY_INVALID', 'At method: expected GET, POST or DELETE.');
  const headers: Record<string, string> = {};
  if (body.headers !== undefined) {
    if (typeof body.headers !== 'object' || body.headers === null || Array.isArray(body.headers))
      throw new BridgeError('E_PROXY_INVALID', 'At headers: expected an object of strings.');
    for (const [name, value] of Object.entries(body.headers)) {
      if (typeof value !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/.test(name)) {
        throw new BridgeError(
          'E_PROXY_INVALID',
          `At headers.${name.slice(0, 100)}: expected a valid header name with a string value.`,
        );
      }
      const bad = badHeaderChar(value);
      if (bad >= 0) {
        const cp = value.codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0');
        throw new BridgeError(
          'E_PROXY_INVALID',
          `At headers.${name}: character U+${cp} at position ${bad} cannot be sent in an HTTP header (only tab and bytes 0x20–0xFF, Latin-1). Remove it or percent-encode the value.`,
          { header: name, position: bad },
        );
      }
      if (FORBIDDEN.test(name))
        throw new BridgeError(
          'E_PROXY_HEADER_DENIED',
          `At headers.${name}: routing and transport headers are set by the bridge, not the caller.`,
        );
      headers[name.toLowerCase()] = value;
    }
  }
  const raw = body.body;
  if (raw !== undefined && typeof raw !== 'string' && !(raw instanceof SpooledBody))
    throw new BridgeError('E_PROXY_INVALID', 'At body: expected a string (serialise JSON first).');
  if (raw !== undefined && method !== 'POST')
    throw new BridgeError('E_PROXY_INVALID', 'At body: only POST requests carry a body.');
  let payload: ProxyBody | undefined;
  if (typeof raw === 'string') {
    const bytes = Buffer.from(raw, 'utf8');
    payload = { pieces: [bytes], byteLength: bytes.byteLength };
  } else payload = raw;
  return { url, method, headers, body: payload };
}

/** Sends the request upstream and pipes the answer into `res`. Resolves when the response has ended. */
export function forwardProxy(
  request: ProxyRequest,
  res: ServerResponse,
  extraHeaders: Record<string, string>,
  maxBytes: number,
  onClientGone: (abort: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const lib = request.url.protocol === 'https:' ? https : http;
    const payload = request.body;
    const upstream = lib.request(request.url, {
      method: request.method,
      agent: false,
      headers: { ...request.headers, ...(payload ? { 'content-length': String(payload.byteLength) } : {}) },
    });
    let started = false;
    onClientGone(() => upstream.destroy());
    upstream.setTimeout(300_000, () => upstream.destroy(new Error('no data for 300 s')));
    upstream.on('error', (error) => {
      if (started) {
        res.destroy();
        resolve();
      } else
        reject(
          new BridgeError(
            'E_PROXY_UPSTREAM',
            `The upstream request to ${request.url.origin} failed (${error.message}).`,
          ),
        );
    });
    upstream.on('response', (up) => {
      const status = up.statusCode ?? 502;
      if (status >= 300 && status < 400) {
        up.resume();
        upstream.destroy();
        reject(
          new BridgeError(
            'E_PROXY_REDIRECT',
            `${request.url.origin} answered with a redirect (${status}); the proxy never follows redirects. Fix the base URL.`,
            { status },
          ),
        );
        return;
      }
      started = true;
      const headers: Record<string, string> = { ...extraHeaders, 'Cache-Control': 'no-store', 'X-I-Bridge-Proxy': '1' };
      for (const [name, value] of Object.entries(up.headers)) {
        if (FORWARD_BACK.test(name) && typeof value === 'string') headers[name] = value;
      }
      res.writeHead(status, headers);
      let size = 0;
      up.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) {
          // Over the cap: cut both sides; the client sees an aborted response rather than a silently short one.
          upstream.destroy();
          res.destroy();
          resolve();
          return;
        }
        // Backpressure: a slow browser pauses the upstream instead of growing a buffer in the bridge.
        if (!res.write(chunk)) {
          up.pause();
          res.once('drain', () => up.resume());
        }
      });
      up.on('end', () => {
        res.end();
        resolve();
      });
      up.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    // The pieces are handed to the socket without another copy; node:http keeps them only until they are written.
    for (const piece of payload?.pieces ?? []) upstream.write(piece);
    upstream.end();
  });
}
