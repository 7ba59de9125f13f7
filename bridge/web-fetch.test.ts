// The bridge's web_fetch tool over net/'s fetchPage (net/web-fetch.test.ts covers the fetch itself: sockets,
// redirects, caps, hostile pages). Pinned here: what the bridge adds (argument check, User-Agent, its setting's name
// in a refusal) and that net's NetError keeps its code and data through the bridge's BridgeError.isInstance and
// toErrorData, up to the HTTP answer.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeError, toErrorData } from './errors';
import { json, send } from './fixtures/http';
import { tempDirs } from './fixtures/support';
import { startBridge } from './start-bridge';
import { webFetch } from './web-fetch';

let server: Server;
let base = '';
const agents: Array<string | undefined> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    agents.push(req.headers['user-agent']);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const thrown = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("the bridge's web_fetch tool", () => {
  it('needs a url string', async () => {
    expect(toErrorData(await thrown(webFetch({ url: 1 }, { allowPrivate: true })))).toMatchObject({
      code: 'E_TOOL_ARGUMENTS',
    });
  });

  it('fetches with its own User-Agent and returns the page text', async () => {
    expect(await webFetch({ url: `${base}/a` }, { allowPrivate: true })).toEqual({
      output: `URL: ${base}/a\nStatus: 200\n\nhello`,
    });
    expect(agents.at(-1)).toBe('i-bridge web_fetch');
  });

  it("keeps the code and data of net's errors: BridgeError.isInstance and toErrorData recognise a NetError", async () => {
    const invalid = await thrown(webFetch({ url: 'file:///etc/passwd' }, { allowPrivate: false }));
    expect([BridgeError.isInstance(invalid), (invalid as Error).name]).toEqual([true, 'NetError']);
    expect(toErrorData(invalid)).toEqual({
      code: 'E_WEB_URL_INVALID',
      message: 'web_fetch only fetches http and https URLs, not file:.',
    });
    const refused = toErrorData(await thrown(webFetch({ url: `${base}/a` }, { allowPrivate: false })));
    expect(refused).toMatchObject({ code: 'E_WEB_PRIVATE_ADDRESS', data: { host: '127.0.0.1', address: '127.0.0.1' } });
    expect(refused.message).toContain('unless web_fetch.allow_private is set in bridge.json');
  });

  it("answers net's refusals over HTTP with their own code and status", async () => {
    const { root, dirs } = tempDirs();
    const workspace = join(root, 'project');
    mkdirSync(workspace);
    const b = await startBridge({
      port: 0,
      roots: [workspace],
      dirs,
      writeBridgeFile: false,
      webFetch: { enabled: true, allowPrivate: false },
      env: { PATH: process.env.PATH },
    });
    try {
      const call = (url: string) =>
        send(b.url, '/v1/tools/call', {
          method: 'POST',
          headers: json(b.token),
          body: JSON.stringify({ name: 'web_fetch', arguments: { url }, workspace }),
        });
      const invalid = await call('file:///etc/passwd');
      expect([
        invalid.status,
        invalid.headers['x-i-bridge-error'],
        (invalid.json().error as { code: string }).code,
      ]).toEqual([400, 'E_WEB_URL_INVALID', 'E_WEB_URL_INVALID']);
      const refused = await call(`${base}/a`);
      expect([refused.status, refused.json().error]).toEqual([
        403,
        expect.objectContaining({ code: 'E_WEB_PRIVATE_ADDRESS', data: { host: '127.0.0.1', address: '127.0.0.1' } }),
      ]);
    } finally {
      await b.close();
    }
  });
});
