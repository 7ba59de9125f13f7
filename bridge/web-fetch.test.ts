import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeError } from './errors';
import { htmlToText } from './html-to-text';
import { isPublicAddress } from './public-address';
import { webFetch } from './web-fetch';

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<html><head><title>Hello &amp; welcome</title><script>alert(1)</script><style>p{}</style></head><body><h1>Title</h1><p>First&nbsp;para with <a href="/next">a link</a>.</p><ul><li>one</li><li>two</li></ul></body></html>');
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (BridgeError.isInstance(e)) return e.code;
    throw e;
  }
  return 'ok';
};

describe('web_fetch', () => {
  it('refuses loopback, private and link-local targets by default, before any request is made', async () => {
    const before = hits;
    expect(await code(webFetch({ url: `${base}/page` }, { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(webFetch({ url: `http://localhost:${new URL(base).port}/page` }, { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(webFetch({ url: 'http://169.254.169.254/latest/meta-data' }, { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(webFetch({ url: 'http://[::ffff:10.0.0.1]/' }, { allowPrivate: false }))).toBe('E_WEB_PRIVATE_ADDRESS');
    expect(await code(webFetch({ url: 'file:///etc/passwd' }, { allowPrivate: false }))).toBe('E_WEB_URL_INVALID');
    expect(hits).toBe(before);
  });

  it('turns HTML into readable text without scripts, following a redirect when private access is configured', async () => {
    const { output } = await webFetch({ url: `${base}/to-page` }, { allowPrivate: true });
    expect(output).toContain(`URL: ${base}/page`);
    expect(output).toContain('Hello & welcome');
    expect(output).toContain('First para with a link (/next).');
    expect(output).toContain('- one\n- two');
    expect(output).not.toMatch(/alert|p\{\}|<h1>/);
  });

  it('stops after 5 requests including redirects', async () => {
    const before = hits;
    expect(await code(webFetch({ url: `${base}/loop` }, { allowPrivate: true }))).toBe('E_WEB_TOO_MANY_REDIRECTS');
    expect(hits - before).toBe(5);
  });

  it('reads at most 1 MB of body and returns at most 50000 characters', async () => {
    const { output } = await webFetch({ url: `${base}/huge` }, { allowPrivate: true });
    expect(output.length).toBeLessThanOrEqual(50_000);
    expect(output).toMatch(/\[truncated at 50000 characters\]$/);
    const small = await webFetch({ url: `${base}/huge` }, { allowPrivate: true, maxOutputChars: 10_000_000 });
    expect(small.output).toMatch(/larger than 1048576 bytes\]$/);
    expect(small.output.length).toBeLessThan(1_048_576 + 200);
  });

  it('gives up at the deadline and refuses binary content', async () => {
    expect(await code(webFetch({ url: `${base}/slow` }, { allowPrivate: true, timeoutMs: 200 }))).toBe('E_WEB_TIMEOUT');
    expect(await code(webFetch({ url: `${base}/binary` }, { allowPrivate: true }))).toBe('E_WEB_UNSUPPORTED_TYPE');
  });
});

describe('public address check', () => {
  it.each([
    ['8.8.8.8', true], ['1.1.1.1', true], ['2606:4700:4700::1111', true],
    ['127.0.0.1', false], ['10.1.2.3', false], ['172.16.0.1', false], ['192.168.1.1', false], ['169.254.169.254', false],
    ['100.64.0.1', false], ['0.0.0.0', false], ['::1', false], ['fe80::1', false], ['fd00::1', false], ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false], ['64:ff9b::10.0.0.1', false], ['not-an-ip', false],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('html to text', () => {
  it('decodes entities and drops comments and hidden elements', () => {
    expect(htmlToText('<p>a &lt;b&gt; &#x41;&#66;</p><!-- secret --><noscript>x</noscript><template>t</template>')).toBe('a <b> AB');
  });
});
