// The `web_fetch` tool backend (seed 000 §9): body ≤ 1 MB, output ≤ 50000 chars, ≤ 5 HTTP requests including
// redirects (each target re-checked), 8 s for the whole fetch, public addresses only unless configured, no
// environment proxies (node:http never reads HTTP_PROXY), no JavaScript.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BridgeError } from './errors';
import { htmlToText } from './html-to-text';
import { WEB_MAX_BODY_BYTES, WEB_MAX_OUTPUT_CHARS, WEB_MAX_REQUESTS, WEB_TIMEOUT_MS } from './limits';
import type { PublicTool, ToolResult } from './protocol';
import { guardedLookup, isPublicAddress, refusedAddress } from './public-address';

export interface WebFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  maxOutputChars?: number;
  maxRequests?: number;
}

export const webFetchTool: PublicTool = {
  name: 'web_fetch',
  description: 'Fetch a public web page (http or https) and return its readable text. No JavaScript runs; output is capped at 50000 characters.',
  parameters: { type: 'object', properties: { url: { type: 'string', description: 'Absolute http(s) URL' } }, required: ['url'], additionalProperties: false },
};

interface Fetched {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
  truncated: boolean;
}

function checkTarget(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BridgeError('E_WEB_URL_INVALID', `web_fetch only fetches http and https URLs, not ${url.protocol}.`);
  }
  if (url.username || url.password) throw new BridgeError('E_WEB_URL_INVALID', 'web_fetch refuses URLs with credentials in them.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowPrivate && !isPublicAddress(host)) throw refusedAddress(host, host);
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) throw refusedAddress(host, 'loopback');
}

function requestOnce(url: URL, opts: Required<WebFetchOptions>, signal: AbortSignal): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(opts.allowPrivate),
      signal,
      headers: { 'user-agent': 'i-bridge web_fetch', accept: 'text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1', 'accept-encoding': 'identity' },
    });
    req.on('error', (error) => reject(BridgeError.isInstance(error) ? error : signal.aborted ? timeout(opts.timeoutMs) : new BridgeError('E_WEB_FETCH_FAILED', `Fetching ${url.origin} failed (${error.message}).`)));
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
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = opts.maxBodyBytes - size;
        if (chunk.byteLength > room) {
          parts.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          res.destroy(); // stop reading: the cap is on what we take in, not only on what we keep
          resolve({ status, location, contentType, body: Buffer.concat(parts, size), truncated });
          return;
        }
        parts.push(chunk);
        size += chunk.byteLength;
      });
      res.on('end', () => resolve({ status, location, contentType, body: Buffer.concat(parts, size), truncated }));
      res.on('error', (error) => {
        if (!truncated) reject(signal.aborted ? timeout(opts.timeoutMs) : new BridgeError('E_WEB_FETCH_FAILED', `Reading ${url.origin} failed (${error.message}).`));
      });
    });
    req.end();
  });
}

const timeout = (ms: number) => new BridgeError('E_WEB_TIMEOUT', `The page did not load within ${ms} ms. Try again later or another URL.`);

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export async function webFetch(args: Record<string, unknown>, options: WebFetchOptions): Promise<ToolResult> {
  const opts: Required<WebFetchOptions> = {
    timeoutMs: WEB_TIMEOUT_MS, maxBodyBytes: WEB_MAX_BODY_BYTES, maxOutputChars: WEB_MAX_OUTPUT_CHARS, maxRequests: WEB_MAX_REQUESTS, ...options,
  };
  if (typeof args.url !== 'string') throw new BridgeError('E_TOOL_ARGUMENTS', 'web_fetch needs {"url": "https://..."}.');
  let url: URL;
  try {
    url = new URL(args.url);
  } catch {
    throw new BridgeError('E_WEB_URL_INVALID', `"${args.url.slice(0, 200)}" is not an absolute URL.`);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    for (let request = 1; ; request++) {
      checkTarget(url, opts.allowPrivate);
      const got = await requestOnce(url, opts, controller.signal);
      if (got.status >= 300 && got.status < 400 && got.location) {
        if (request >= opts.maxRequests) {
          throw new BridgeError('E_WEB_TOO_MANY_REDIRECTS', `Stopped after ${opts.maxRequests} requests; the page keeps redirecting.`);
        }
        url = new URL(got.location, url);
        continue;
      }
      const type = got.contentType.split(';')[0]!.trim().toLowerCase();
      const textual = type === '' || type.startsWith('text/') || /[/+](json|xml)$/.test(type) || type === 'application/xhtml+xml';
      if (!textual) throw new BridgeError('E_WEB_UNSUPPORTED_TYPE', `${url.href} is ${type}, not text or HTML. web_fetch returns text only.`);
      const raw = decode(got.body, got.contentType);
      const text = type.includes('html') || (type === '' && /^\s*</.test(raw)) ? htmlToText(raw) : raw;
      const head = `URL: ${url.href}\nStatus: ${got.status}\n\n`;
      let note = got.truncated ? `\n\n[truncated: the page is larger than ${opts.maxBodyBytes} bytes]` : '';
      let output = `${head}${text}${note}`;
      if (output.length > opts.maxOutputChars) {
        note = `\n\n[truncated at ${opts.maxOutputChars} characters]`;
        output = `${head}${text.slice(0, Math.max(0, opts.maxOutputChars - head.length - note.length))}${note}`;
      }
      return { output };
    }
  } finally {
    clearTimeout(timer);
  }
}
