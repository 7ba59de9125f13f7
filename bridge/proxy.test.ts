import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, send } from './fixtures/http';
import { tempDirs } from './fixtures/support';
import { startBridge, type RunningBridge } from './start-bridge';

let upstream: Server;
let upstreamUrl: string;
let seen: { headers: Record<string, unknown>; body: string }[] = [];
const running: RunningBridge[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(parts).toString() });
      if (req.url === '/v1/redirect') {
        res.writeHead(307, { location: 'https://elsewhere.example/' });
        return res.end();
      }
      if (req.url === '/v1/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'r1', 'set-cookie': 'a=b' });
        res.write('data: one\n\n');
        return setTimeout(() => res.end('data: two\n\n'), 50);
      }
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': '3',
        'retry-after-ms': '2500',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-tokens': '6m0s',
        'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:00Z',
        'request-id': 'req_1',
      });
      res.end('{"error":"slow down"}');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));
afterEach(async () => {
  seen = [];
  for (const b of running.splice(0)) await b.close();
});

const APP = 'http://app.test';

async function bridge() {
  const { root, dirs } = tempDirs();
  const b = await startBridge({
    port: 0,
    roots: [root],
    dirs,
    proxyOrigins: [upstreamUrl],
    allowOrigins: [APP],
    env: { PATH: process.env.PATH },
  });
  running.push(b);
  return b;
}
const proxy = (b: RunningBridge, body: unknown) =>
  send(b.url, '/v1/proxy', { method: 'POST', headers: json(b.token), body: JSON.stringify(body) });

describe('provider proxy', () => {
  it('streams an allowlisted upstream response back with its status and safe headers only', async () => {
    const b = await bridge();
    const res = await proxy(b, {
      url: `${upstreamUrl}/v1/stream`,
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"q":1}',
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('data: one\n\ndata: two\n\n');
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['x-request-id']).toBe('r1');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(seen[0]).toMatchObject({ body: '{"q":1}', headers: { authorization: 'Bearer k' } });
    const limited = await proxy(b, { url: `${upstreamUrl}/v1/other`, body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('3');
  });

  it('lets the page read Retry-After and the rate-limit headers of a proxied answer (CORS expose list by name)', async () => {
    const b = await bridge();
    const res = await send(b.url, '/v1/proxy', {
      method: 'POST',
      headers: { ...json(b.token), origin: APP },
      body: JSON.stringify({ url: `${upstreamUrl}/v1/chat`, body: '{}' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    const exposed = String(res.headers['access-control-expose-headers'])
      .split(',')
      .map((h) => h.trim().toLowerCase());
    const forwarded = [
      'retry-after',
      'retry-after-ms',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-tokens',
      'anthropic-ratelimit-tokens-reset',
      'request-id',
      'x-i-bridge-proxy',
    ];
    for (const name of forwarded) {
      expect(res.headers[name], name).toBeDefined();
      expect(exposed, name).toContain(name);
    }
    expect(exposed).toContain('x-i-bridge-error');
    // Only proxied answers carry the long list; other endpoints keep the bridge's own header.
    const status = await send(b.url, '/v1/status', { headers: { ...bearer(b.token), origin: APP } });
    expect(status.headers['access-control-expose-headers']).toBe('X-I-Bridge-Error');
  });

  it('refuses origins off the allowlist, redirects, and transport headers', async () => {
    const b = await bridge();
    const off = await proxy(b, { url: 'https://api.example/v1/chat', body: '{}' });
    expect(off.status).toBe(403);
    expect((off.json().error as { code: string }).code).toBe('E_PROXY_ORIGIN_DENIED');
    const redirect = await proxy(b, { url: `${upstreamUrl}/v1/redirect`, body: '{}' });
    expect(redirect.status).toBe(502);
    expect((redirect.json().error as { code: string }).code).toBe('E_PROXY_REDIRECT');
    const host = await proxy(b, { url: `${upstreamUrl}/v1/stream`, headers: { Host: 'evil' }, body: '{}' });
    expect((host.json().error as { code: string }).code).toBe('E_PROXY_HEADER_DENIED');
    expect(seen.map((s) => s.body)).toEqual(['{}']); // only the redirect request went out
  });

  it('forwards only http and https targets: other schemes get 400 E_PROXY_INVALID, even if their "null" origin were allowed', async () => {
    const { root, dirs } = tempDirs();
    const b = await startBridge({
      port: 0,
      roots: [root],
      dirs,
      proxyOrigins: [upstreamUrl, 'null'],
      allowOrigins: [APP],
      env: { PATH: process.env.PATH },
    });
    running.push(b);
    for (const url of [
      'file:///etc/passwd',
      'data:text/plain,hi',
      'javascript:alert(1)',
      'ftp://127.0.0.1/x',
      'ws://127.0.0.1:1/',
    ]) {
      const res = await proxy(b, { url, body: '{}' });
      expect([url, res.status, (res.json().error as { code: string }).code]).toEqual([url, 400, 'E_PROXY_INVALID']);
      expect((res.json().error as { message: string }).message).toMatch(/only http and https URLs/);
    }
    expect(seen).toEqual([]);
  });

  it('refuses a header value outside Latin-1 or with control characters with a clear 400, and sends Latin-1 values', async () => {
    const b = await bridge();
    for (const [value, cp] of [
      ['Bearer k€y', 'U+20AC'],
      ['a\u0001b', 'U+0001'],
      ['x\u2028y', 'U+2028'],
      ['emoji 😀', 'U+1F600'],
      ['line\nbreak', 'U+000A'],
    ] as const) {
      const res = await proxy(b, { url: `${upstreamUrl}/v1/stream`, headers: { 'x-api-key': value }, body: '{}' });
      expect([value, res.status, (res.json().error as { code: string }).code]).toEqual([value, 400, 'E_PROXY_INVALID']);
      expect((res.json().error as { message: string }).message).toContain(`At headers.x-api-key: character ${cp}`);
    }
    expect(seen).toEqual([]);
    const latin1 = await proxy(b, { url: `${upstreamUrl}/v1/stream`, headers: { 'x-note': 'café\tbar' }, body: '{}' });
    expect(latin1.status).toBe(200);
    expect(seen[0]?.headers['x-note']).toBe('café\tbar');
  });
});
