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
  return value.split(';')[0]!.trim().toLowerCase() === 'application/json';
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
