import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetError } from './errors';
import { fetchPage } from './web-fetch';

let server: Server;
let base: string;
let hits = 0;
const open = new Set<Socket>();

/** Writes to a response until the client goes away: a body that never ends. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 'z');
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        '<html><head><title>Hello &amp; welcome</title><script>alert(1)</script><style>p{}</style></head><body><h1>Title</h1><p>First&nbsp;para with <a href="/next">a link</a>.</p><ul><li>one</li><li>two</li></ul></body></html>',
      );
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
      return res.end();
    }
    if (url.pathname === '/endless-302') {
      res.writeHead(302, { location: '/page', 'content-type': 'text/plain' });
      return endless(res);
    }
    if (url.pathname === '/endless-loop') {
      res.writeHead(302, { location: '/endless-loop', 'content-type': 'text/plain' });
      return endless(res);
    }
    if (url.pathname === '/bad-location') {
      res.writeHead(302, { location: 'http://[::1' });
      return res.end();
    }
    if (url.pathname === '/to-page') {
      res.writeHead(301, { location: '/page' });
      return res.end();
    }
    if (url.pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'z'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (url.pathname === '/slow') return setTimeout(() => res.end('late'), 2000);
    if (url.pathname === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(Buffer.alloc(10));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('missing');
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (NetError.isInstance(e)) return e.code;
    throw e;
  }
  return 'ok';
};

describe('fetchPage (web_fetch for the bridge and headless i)', () => {
  it('refuses loopback, private and link-local targets by default, and URLs over 4096 characters, before any request is made', async () => {
    const before = hits;
    expect(await code(fetchPage(`${base}/page`, { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(fetchPage(`http://localhost:${new URL(base).port}/page`, { allowPrivate: false }))).toBe(
      'E_WEB_PRIVATE_ADDRESS',
    );
    expect(await code(fetchPage('http://169.254.169.254/latest/meta-data', { allowPrivate: false }))).toBe(
      'E_WEB_PRIVATE_ADDRESS',
    );
    expect(await code(fetchPage('http://[::ffff:10.0.0.1]/', { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(fetchPage('file:///etc/passwd', { allowPrivate: false }))).toBe('E_WEB_URL_INVALID');
    const long = await fetchPage(`${base}/page?${'q'.repeat(3_000_000)}`, { allowPrivate: true }).catch(
      (e: NetError) => e,
    );
    expect([(long as NetError).code, (long as NetError).message.length < 300]).toEqual(['E_WEB_URL_INVALID', true]);
    expect(hits).toBe(before);
  });

  it('turns HTML into readable text without scripts, following a redirect when private access is configured', async () => {
    const { output } = await fetchPage(`${base}/to-page`, { allowPrivate: true });
    expect(output).toContain(`URL: ${base}/page`);
    expect(output).toContain('Hello & welcome');
    expect(output).toContain('First para with a link (/next).');
    expect(output).toContain('- one\n- two');
    expect(output).not.toMatch(/alert|p\{\}|<h1>/);
  });

  it('refuses a malformed redirect target with E_WEB_REDIRECT_INVALID naming it, not an internal error', async () => {
    await expect(fetchPage(`${base}/bad-location`, { allowPrivate: true })).rejects.toMatchObject({
      code: 'E_WEB_REDIRECT_INVALID',
      message: expect.stringContaining('redirected to "http://[::1", which is not a valid URL'),
    });
  });

  it('stops after 5 requests including redirects', async () => {
    const before = hits;
    expect(await code(fetchPage(`${base}/loop`, { allowPrivate: true }))).toBe('E_WEB_TOO_MANY_REDIRECTS');
    expect(hits - before).toBe(5);
  });

  it('reads at most 1 MB of body and returns at most 50000 characters', async () => {
    const { output } = await fetchPage(`${base}/huge`, { allowPrivate: true });
    expect(output.length).toBeLessThanOrEqual(50_000);
    expect(output).toMatch(/\[truncated at 50000 characters\]$/);
    const small = await fetchPage(`${base}/huge`, { allowPrivate: true, maxOutputChars: 10_000_000 });
    expect(small.output).toMatch(/larger than 1048576 bytes\]$/);
    expect(small.output.length).toBeLessThan(1_048_576 + 200);
  });

  it('gives up at the deadline and refuses binary content', async () => {
    expect(await code(fetchPage(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }))).toBe('E_WEB_TIMEOUT');
    expect(await code(fetchPage(`${base}/binary`, { allowPrivate: true }))).toBe('E_WEB_UNSUPPORTED_TYPE');
  });
});

/** Resolves once the server has seen every connection closed, or gives up after `ms` (the test then fails). */
async function allClosed(ms = 2000): Promise<number> {
  const until = Date.now() + ms;
  while (open.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return open.size;
}

describe('fetchPage leaves no socket open', () => {
  it('destroys a redirect body instead of draining it: a 302 with an endless body is closed when the call returns', async () => {
    const { output } = await fetchPage(`${base}/endless-302`, { allowPrivate: true });
    expect(output).toContain(`URL: ${base}/page`);
    expect(await allClosed()).toBe(0);
  });

  it('refuses a redirect flood of endless bodies at the cap with E_WEB_TOO_MANY_REDIRECTS, every socket closed', async () => {
    const before = hits;
    expect(await code(fetchPage(`${base}/endless-loop`, { allowPrivate: true }))).toBe('E_WEB_TOO_MANY_REDIRECTS');
    expect(hits - before).toBe(5);
    expect(await allClosed()).toBe(0);
  });

  it('closes the connection of a page cut at the body cap and of a page that timed out', async () => {
    expect((await fetchPage(`${base}/huge`, { allowPrivate: true, maxBodyBytes: 1000 })).output).toContain(
      '[truncated: the page is larger than 1000 bytes]',
    );
    expect(await code(fetchPage(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }))).toBe('E_WEB_TIMEOUT');
    expect(await allClosed()).toBe(0);
  });

  it("stops at the caller's signal with E_ABORTED, not as a timeout", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await code(fetchPage(`${base}/slow`, { allowPrivate: true, signal: controller.signal }))).toBe('E_ABORTED');
    expect(await allClosed()).toBe(0);
  });
});
