// The Node WebFetchBackend for headless `i` (seed 000 §9), the same rules as the bridge's: every target (the first
// URL and each redirect, followed manually) is checked — scheme, no credentials, literal IPs and `localhost`
// names, then every DNS answer through guardedLookup — at most 5 requests, 8 s for the whole fetch, body read up
// to 1 MB, output <= 50000 characters, HTML turned into text without running scripts. node:http never reads
// HTTP(S)_PROXY, and `agent: false` keeps connections unshared. Node-only: exported from modules/node.ts.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { HarnessError } from '../../errors';
import type { ToolResult } from '../../tools/types';
import { htmlToText } from './html-to-text';
import { WEB_MAX_BODY_BYTES, WEB_MAX_OUTPUT_CHARS, WEB_MAX_REQUESTS, WEB_TIMEOUT_MS } from './limits';
import { guardedLookup, isPublicAddress, refusedAddress } from './node-public-address';
import type { WebFetchBackend } from './web-fetch-tool';

export interface NodeWebFetchOptions {
  /** Explicit trusted configuration only (web.json `fetch.allow_private`): reach private and loopback addresses. */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxOutputChars?: number;
  maxRequests?: number;
}

interface Fetched {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

function checkTarget(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HarnessError('E_WEB_URL_INVALID', `web_fetch only fetches http and https URLs, not ${url.protocol}.`);
  if (url.username || url.password) throw new HarnessError('E_WEB_URL_INVALID', 'web_fetch refuses URLs with credentials in them.');
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw refusedAddress(host, host);
  if (host === 'localhost' || host.endsWith('.localhost')) throw refusedAddress(host, 'loopback');
}

const timeout = (ms: number) => new HarnessError('E_WEB_TIMEOUT', `The page did not load within ${ms} ms. Try again later or another URL.`);

function requestOnce(url: URL, o: Required<NodeWebFetchOptions>, signal: AbortSignal): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(o.allowPrivate),
      signal,
      headers: { 'user-agent': 'i web_fetch', accept: 'text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1', 'accept-encoding': 'identity' },
    });
    req.on('error', (error) => {
      if (HarnessError.isInstance(error)) reject(error);
      else reject(signal.aborted ? timeout(o.timeoutMs) : new HarnessError('E_WEB_FETCH_FAILED', `Fetching ${url.origin} failed (${error.message}). Check the URL or try later.`));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      const contentType = String(res.headers['content-type'] ?? '');
      if (status >= 300 && status < 400) {
        res.resume();
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
        if (!done) reject(signal.aborted ? timeout(o.timeoutMs) : new HarnessError('E_WEB_FETCH_FAILED', `Reading ${url.origin} failed (${error.message}).`));
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

export function createNodeWebFetch(options: NodeWebFetchOptions = {}): WebFetchBackend {
  const o: Required<NodeWebFetchOptions> = {
    allowPrivate: false, timeoutMs: WEB_TIMEOUT_MS, maxBodyBytes: WEB_MAX_BODY_BYTES, maxOutputChars: WEB_MAX_OUTPUT_CHARS, maxRequests: WEB_MAX_REQUESTS, ...options,
  };
  return {
    name: 'node',
    async fetch(href: string, outer: AbortSignal): Promise<ToolResult> {
      let url = new URL(href);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), o.timeoutMs);
      const onAbort = () => controller.abort();
      outer.addEventListener('abort', onAbort, { once: true });
      if (outer.aborted) controller.abort();
      try {
        for (let request = 1; ; request++) {
          checkTarget(url, o.allowPrivate);
          const got = await requestOnce(url, o, controller.signal);
          if (got.status >= 300 && got.status < 400 && got.location) {
            if (request >= o.maxRequests) throw new HarnessError('E_WEB_TOO_MANY_REDIRECTS', `Stopped after ${o.maxRequests} requests; the page keeps redirecting.`);
            url = new URL(got.location, url);
            continue;
          }
          const type = got.contentType.split(';')[0]!.trim().toLowerCase();
          const textual = type === '' || type.startsWith('text/') || /[/+](json|xml)$/.test(type);
          if (!textual) throw new HarnessError('E_WEB_UNSUPPORTED_TYPE', `${url.href} is ${type}, not text or HTML. web_fetch returns text only.`);
          const raw = decode(got.body, got.contentType);
          const text = type.includes('html') || (type === '' && /^\s*</.test(raw)) ? htmlToText(raw) : raw;
          const head = `URL: ${url.href}\nStatus: ${got.status}\n\n`;
          let note = got.truncated ? `\n\n[truncated: the page is larger than ${o.maxBodyBytes} bytes]` : '';
          let output = `${head}${text}${note}`;
          if (output.length > o.maxOutputChars) {
            note = `\n\n[truncated at ${o.maxOutputChars} characters]`;
            output = `${head}${text.slice(0, Math.max(0, o.maxOutputChars - head.length - note.length))}${note}`;
          }
          return got.status >= 400 ? { output, error: true, code: 'E_WEB_HTTP_STATUS' } : { output };
        }
      } catch (error) {
        // Stopped by the person (the turn's signal), not by the deadline: say so.
        if (outer.aborted) throw new HarnessError('E_ABORTED', 'The fetch was stopped.');
        throw error;
      } finally {
        clearTimeout(timer);
        outer.removeEventListener('abort', onAbort);
      }
    },
  };
}
