// The `web_fetch` backend (seed 000 §9): body ≤ 1 MB, output ≤ 50000 chars, ≤ 5 HTTP requests including
// redirects (each target re-checked), 8 s for the whole fetch, public addresses only unless configured, no
// environment proxies (node:http never reads HTTP_PROXY), no JavaScript.
// The ONE implementation, in net/ below both of its callers: the bridge serves it as its `web_fetch` tool
// (bridge/web-fetch.ts), and headless `i` calls `fetchPage` through web/core/modules/web/node-web-fetch.ts.
// Sockets: `agent: false` gives every request its own connection; a redirect's body is destroyed, never drained
// (a 302 with an endless body would otherwise keep its socket reading after the call returned), and the
// controller is aborted in `finally`, so nothing this call opened is still open when it returns.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { NetError } from './errors';
import { htmlToTextYielding } from './html-to-text';
import { WEB_MAX_BODY_BYTES, WEB_MAX_OUTPUT_CHARS, WEB_MAX_REQUESTS, WEB_TIMEOUT_MS } from './limits';
import { DEFAULT_PRIVATE_HINT, guardedLookup, isPublicAddress, refusedAddress } from './public-address';
import { quoteUntrusted } from './untrusted-text';

export interface WebFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxOutputChars?: number;
  maxRequests?: number;
  /** Sent as User-Agent ("i-bridge web_fetch", "i web_fetch"; default "i web_fetch"). */
  userAgent?: string;
  /** Ends the refusal "web_fetch only reaches public addresses unless …" with the caller's own setting. */
  privateHint?: string;
  /** The caller's stop (a turn stopped by the person): the fetch ends with E_ABORTED. */
  signal?: AbortSignal;
}

type Settings = Required<Omit<WebFetchOptions, 'signal'>>;

interface Fetched {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

function checkTarget(url: URL, o: Settings): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError('E_WEB_URL_INVALID', `web_fetch only fetches http and https URLs, not ${url.protocol}.`);
  }
  if (url.username || url.password)
    throw new NetError('E_WEB_URL_INVALID', 'web_fetch refuses URLs with credentials in them.');
  if (o.allowPrivate) return;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) && !isPublicAddress(host)) throw refusedAddress(host, host, o.privateHint);
  if (host === 'localhost' || host.endsWith('.localhost')) throw refusedAddress(host, 'loopback', o.privateHint);
}

const timeout = (ms: number) =>
  new NetError('E_WEB_TIMEOUT', `The page did not load within ${ms} ms. Try again later or another URL.`);

function requestOnce(url: URL, o: Settings, signal: AbortSignal): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(o.allowPrivate, o.privateHint),
      signal,
      headers: {
        'user-agent': o.userAgent,
        accept: 'text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1',
        'accept-encoding': 'identity',
      },
    });
    req.on('error', (error) => {
      if (NetError.isInstance(error)) reject(error);
      else
        reject(
          signal.aborted
            ? timeout(o.timeoutMs)
            : new NetError(
                'E_WEB_FETCH_FAILED',
                `Fetching ${url.origin} failed (${error.message}). Check the URL or try later.`,
              ),
        );
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      const contentType = String(res.headers['content-type'] ?? '');
      if (status >= 300 && status < 400) {
        // Only the Location header matters: close the connection now instead of reading a body of any size.
        res.destroy();
        resolve({ status, location, contentType, body: Buffer.alloc(0), truncated: false });
        return;
      }
      const parts: Buffer[] = [];
      let size = 0;
      let done = false;
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        const room = o.maxBodyBytes - size;
        if (chunk.byteLength > room) {
          parts.push(chunk.subarray(0, room));
          size += room;
          done = true;
          res.destroy(); // the cap is on what is taken in, not only on what is kept
          resolve({ status, location, contentType, body: Buffer.concat(parts, size), truncated: true });
          return;
        }
        parts.push(chunk);
        size += chunk.byteLength;
      });
      res.on('end', () => {
        if (!done) resolve({ status, location, contentType, body: Buffer.concat(parts, size), truncated: false });
      });
      res.on('error', (error) => {
        if (!done)
          reject(
            signal.aborted
              ? timeout(o.timeoutMs)
              : new NetError('E_WEB_FETCH_FAILED', `Reading ${url.origin} failed (${error.message}).`),
          );
      });
    });
    req.end();
  });
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const MAX_URL_CHARS = 4096;

export interface FetchedPage {
  status: number;
  /** `URL: …`, `Status: …`, then the page as text, capped at maxOutputChars. */
  output: string;
}

/** Where a redirect leads. The page chose the Location header: a malformed one is the page's fault, not ours. */
function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new NetError(
      'E_WEB_REDIRECT_INVALID',
      `${from.origin} redirected to ${quoteUntrusted(location)}, which is not a valid URL. Try the address the page meant directly.`,
    );
  }
}

/** Fetches one URL under seed 000 §9's rules. Refusals and failures throw NetError (E_WEB_*, E_ABORTED). */
export async function fetchPage(href: string, options: WebFetchOptions): Promise<FetchedPage> {
  const { signal: outer, ...rest } = options;
  const o: Settings = {
    timeoutMs: WEB_TIMEOUT_MS,
    maxBodyBytes: WEB_MAX_BODY_BYTES,
    maxOutputChars: WEB_MAX_OUTPUT_CHARS,
    maxRequests: WEB_MAX_REQUESTS,
    userAgent: 'i web_fetch',
    privateHint: DEFAULT_PRIVATE_HINT,
    ...rest,
  };
  // The URL is echoed in the answer and in errors: a 10 MB URL must not make a 10 MB error (the app's tool says 4096 too).
  if (href.length > MAX_URL_CHARS)
    throw new NetError(
      'E_WEB_URL_INVALID',
      `The URL is ${href.length} characters long; web_fetch takes at most ${MAX_URL_CHARS}. Give a shorter URL.`,
    );
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new NetError('E_WEB_URL_INVALID', `"${href.slice(0, 200)}" is not an absolute URL. Give a full http(s) URL.`);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), o.timeoutMs);
  const onAbort = () => controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) controller.abort();
  try {
    for (let request = 1; ; request++) {
      checkTarget(url, o);
      const got = await requestOnce(url, o, controller.signal);
      if (got.status >= 300 && got.status < 400 && got.location) {
        if (request >= o.maxRequests) {
          throw new NetError(
            'E_WEB_TOO_MANY_REDIRECTS',
            `Stopped after ${o.maxRequests} requests; the page keeps redirecting. Try the final address directly.`,
          );
        }
        url = redirectTarget(got.location, url);
        continue;
      }
      const type = got.contentType.split(';')[0]!.trim().toLowerCase();
      const textual =
        type === '' ||
        type.startsWith('text/') ||
        type.endsWith('/json') ||
        type.endsWith('+json') ||
        type.endsWith('/xml') ||
        type.endsWith('+xml');
      if (!textual)
        throw new NetError(
          'E_WEB_UNSUPPORTED_TYPE',
          `${url.href} is ${type.slice(0, 100)}, not text or HTML. web_fetch returns text only.`,
        );
      const raw = decode(got.body, got.contentType);
      const text =
        type.includes('html') || (type === '' && raw.trimStart().startsWith('<')) ? await htmlToTextYielding(raw) : raw;
      const head = `URL: ${url.href}\nStatus: ${got.status}\n\n`;
      let note = got.truncated ? `\n\n[truncated: the page is larger than ${o.maxBodyBytes} bytes]` : '';
      let output = `${head}${text}${note}`;
      if (output.length > o.maxOutputChars) {
        note = `\n\n[truncated at ${o.maxOutputChars} characters]`;
        output = `${head}${text.slice(0, Math.max(0, o.maxOutputChars - head.length - note.length))}${note}`;
      }
      return { status: got.status, output };
    }
  } catch (error) {
    // Stopped by the caller (the turn's signal), not by the deadline: say so.
    if (outer?.aborted) throw new NetError('E_ABORTED', 'The fetch was stopped.');
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
    controller.abort(); // whatever is still connecting or reading stops here, not later
  }
}
