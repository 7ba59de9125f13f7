import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../../../net';
import { HarnessError, toErrorData } from '../../contracts';
import type { ToolContext } from '../../contracts/tools';
import { createNodeWebFetch } from './node-web-fetch';
import { webFetchTool } from './web-fetch-tool';

let server: Server;
let base = '';
const hits: string[] = [];

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  hits.push(url);
  if (url === '/page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<html><head><title>Hello &amp; welcome</title><script>alert(1)</script></head><body><h1>Title</h1><p>Some <b>bold</b> text &mdash; <a href="/next">next</a></p><ul><li>one</li><li>two</li></ul></body></html>',
    );
  } else if (url.startsWith('/redirect/')) {
    const n = Number(url.split('/')[2]);
    res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : '/page' });
    res.end();
  } else if (url === '/big') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('x'.repeat(300_000));
  } else if (url === '/image') {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(Buffer.from([0x89, 0x50]));
  } else if (url === '/slow') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
    // never ends: the client's deadline must stop it
  } else if (url === '/missing') {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not here');
  } else {
    res.writeHead(500);
    res.end();
  }
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const ctx = { signal: new AbortController().signal } as ToolContext;

// The backend is net/'s fetch, the one the bridge serves too (net/web-fetch.test.ts covers sockets, redirects and
// hostile pages; net/public-address.test.ts the address table): these tests pin what headless `i` adds and sees
// through the tool.
describe('Node web_fetch backend', () => {
  it('refuses loopback and private targets unless private access is configured', async () => {
    const tool = webFetchTool(createNodeWebFetch());
    const before = hits.length;
    for (const url of [
      `${base}/page`,
      'http://localhost:1/x',
      'http://[::1]:1/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const result = await tool.execute({ url }, ctx);
      expect([result.code, url]).toEqual(['E_WEB_PRIVATE_ADDRESS', url]);
      expect(result.output).toContain('web.json "fetch": {"allow_private": true}');
    }
    expect(hits.length).toBe(before);
  });

  it('fetches HTML as readable text without scripts when private access is configured', async () => {
    const tool = webFetchTool(createNodeWebFetch({ allowPrivate: true }));
    const result = await tool.execute({ url: `${base}/page` }, ctx);
    expect(result.error).toBeUndefined();
    expect(result.output).toBe(
      `URL: ${base}/page\nStatus: 200\n\nHello & welcome\n\nTitle\n\nSome bold text — next (/next)\n\n- one\n- two`,
    );
  });

  it('follows at most 5 requests, re-checking each redirect target', async () => {
    const tool = webFetchTool(createNodeWebFetch({ allowPrivate: true }));
    expect((await tool.execute({ url: `${base}/redirect/3` }, ctx)).output).toContain(`URL: ${base}/page`);
    expect((await tool.execute({ url: `${base}/redirect/4` }, ctx)).code).toBe('E_WEB_TOO_MANY_REDIRECTS');
  });

  it('caps the body and the output, refuses non-text, and stops at the deadline', async () => {
    const capped = await webFetchTool(createNodeWebFetch({ allowPrivate: true, maxBodyBytes: 1000 })).execute(
      { url: `${base}/big` },
      ctx,
    );
    expect(capped.output).toContain('[truncated: the page is larger than 1000 bytes]');
    const output = await webFetchTool(createNodeWebFetch({ allowPrivate: true })).execute({ url: `${base}/big` }, ctx);
    expect(output.output.length).toBe(50_000);
    expect(output.output.endsWith('[truncated at 50000 characters]')).toBe(true);
    expect(
      (await webFetchTool(createNodeWebFetch({ allowPrivate: true })).execute({ url: `${base}/image` }, ctx)).code,
    ).toBe('E_WEB_UNSUPPORTED_TYPE');
    expect(
      (
        await webFetchTool(createNodeWebFetch({ allowPrivate: true, timeoutMs: 300 })).execute(
          { url: `${base}/slow` },
          ctx,
        )
      ).code,
    ).toBe('E_WEB_TIMEOUT');
    const missing = await webFetchTool(createNodeWebFetch({ allowPrivate: true })).execute(
      { url: `${base}/missing` },
      ctx,
    );
    expect([missing.code, missing.output]).toEqual([
      'E_WEB_HTTP_STATUS',
      `URL: ${base}/missing\nStatus: 404\n\nnot here`,
    ]);
  });

  it('reports a fetch stopped by the turn as aborted, not as a timeout', async () => {
    const controller = new AbortController();
    const pending = webFetchTool(createNodeWebFetch({ allowPrivate: true })).execute({ url: `${base}/slow` }, {
      signal: controller.signal,
    } as ToolContext);
    setTimeout(() => controller.abort(), 100);
    expect((await pending).code).toBe('E_ABORTED');
  });

  it('refuses non-http schemes and credentials in the URL before any request', async () => {
    const tool = webFetchTool(createNodeWebFetch({ allowPrivate: true }));
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', `http://user:pw@127.0.0.1/`, 'not a url']) {
      expect((await tool.execute({ url }, ctx)).code, url).toBe('E_WEB_URL_INVALID');
    }
    await expect(tool.prepare!({ url: 'https://example.com/a' }, ctx)).resolves.toEqual({
      summary: 'Fetch https://example.com/a (via node)',
    });
  });

  it("keeps the code and data of net's errors: HarnessError.isInstance and toErrorData recognise a NetError", async () => {
    const invalid = await fetchPage('file:///etc/passwd', { allowPrivate: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect([HarnessError.isInstance(invalid), (invalid as Error).name]).toEqual([true, 'NetError']);
    expect(toErrorData(invalid)).toEqual({
      code: 'E_WEB_URL_INVALID',
      message: 'web_fetch only fetches http and https URLs, not file:.',
    });
    const refused = await fetchPage(`${base}/page`, { allowPrivate: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(toErrorData(refused)).toMatchObject({
      code: 'E_WEB_PRIVATE_ADDRESS',
      data: { host: '127.0.0.1', address: '127.0.0.1' },
    });
  });
});
