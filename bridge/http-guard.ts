// The checks every request passes before anything else runs (and long before a process could be spawned).
// Drive-by pages are the threat (MCP Inspector CVE-2025-49596, Ollama DNS rebinding): the Host must be loopback
// on our port, a present Origin must be on the exact allowlist, and POST bodies must be JSON (text/plain is a
// CORS "simple request" a page can send without a preflight).
import type { IncomingMessage, ServerResponse } from 'node:http';

export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return host === `127.0.0.1:${port}` || host === `[::1]:${port}` || host === `localhost:${port}`;
}

export function originAllowed(origin: string | undefined, allow: readonly string[]): boolean {
  return origin === undefined || allow.includes(origin);
}

/** `application/json`, parameters such as `charset=utf-8` allowed. */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  if (value === 'application/json') return true; // what fetch() and most clients send
  return value.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Response headers a page may read from a proxied provider answer. CORS needs them by name (`*` is not honoured with
 * credentials and names no pattern), so the common rate-limit families are listed one by one: without them a 429
 * through the bridge would ignore Retry-After.
 */
export const PROXY_EXPOSE_HEADERS: readonly string[] = [
  'X-I-Bridge-Error',
  'X-I-Bridge-Proxy',
  'Retry-After',
  'Retry-After-Ms',
  'Request-Id',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  ...['requests', 'tokens'].flatMap((what) =>
    ['limit', 'remaining', 'reset'].map((k) => `X-RateLimit-${cap(k)}-${cap(what)}`),
  ),
  ...['requests', 'tokens', 'input-tokens', 'output-tokens'].flatMap((what) =>
    ['limit', 'remaining', 'reset'].map((k) => `Anthropic-RateLimit-${what.split('-').map(cap).join('-')}-${cap(k)}`),
  ),
  'Anthropic-Organization-Id',
  'OpenAI-Processing-Ms',
  'OpenAI-Version',
];

function cap(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

/** CORS headers of a proxied provider response: those of every answer plus the provider headers a page reads. */
export function proxyCorsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { ...corsHeaders(origin), 'Access-Control-Expose-Headers': PROXY_EXPOSE_HEADERS.join(', ') };
}

/** CORS headers for a request from an allowed origin (none for requests without Origin). */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'X-I-Bridge-Error' };
}

/** Answers a preflight from an allowed origin, including Chrome's Private/Local Network Access opt-in. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, origin: string): void {
  res.writeHead(204, {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Allow-Private-Network': 'true',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Private-Network',
  });
  res.end();
  void req;
}
