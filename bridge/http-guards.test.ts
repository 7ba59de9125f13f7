import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, json, send } from './fixtures/http';
import { examplesDir, tempDirs } from './fixtures/support';
import { startBridge, type BridgeOptions, type RunningBridge } from './start-bridge';

const ORIGIN = 'https://app.i.example';
const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

async function bridge(extra: Partial<BridgeOptions> = {}) {
  const { root, dirs } = tempDirs();
  const workspace = join(root, 'project');
  mkdirSync(workspace);
  const b = await startBridge({
    port: 0,
    roots: [workspace],
    allowOrigins: [ORIGIN],
    manifestPath: join(examplesDir, 'desktop.json'),
    dirs,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    callTimeoutMs: 5000,
    killGraceMs: 50,
    ...extra,
  });
  running.push(b);
  return { b, workspace, dirs };
}
const callBody = (workspace: string, text = 'hi') => JSON.stringify({ name: 'echo', arguments: { text }, workspace });

describe('requests that must be refused before anything runs', () => {
  it('refuses a foreign Origin, a rebinding Host, a missing or wrong token and text/plain, and spawns nothing', async () => {
    const { b, workspace } = await bridge();
    const body = callBody(workspace);
    const host = `127.0.0.1:${b.port}`;
    const attempts: { why: string; status: number; code: string; headers: Record<string, string> }[] = [
      {
        why: 'foreign origin',
        status: 403,
        code: 'E_ORIGIN_DENIED',
        headers: { ...json(b.token), origin: 'https://evil.example' },
      },
      {
        why: 'rebinding host',
        status: 403,
        code: 'E_HOST_DENIED',
        headers: { ...json(b.token), host: `evil.example:${b.port}` },
      },
      {
        why: 'host on another port',
        status: 403,
        code: 'E_HOST_DENIED',
        headers: { ...json(b.token), host: '127.0.0.1:80' },
      },
      {
        why: 'missing token',
        status: 401,
        code: 'E_UNAUTHORIZED',
        headers: { 'content-type': 'application/json', host },
      },
      { why: 'wrong token', status: 401, code: 'E_UNAUTHORIZED', headers: { ...json('A'.repeat(43)), host } },
      {
        why: 'text/plain',
        status: 415,
        code: 'E_CONTENT_TYPE',
        headers: { ...bearer(b.token), 'content-type': 'text/plain' },
      },
      { why: 'no content type', status: 415, code: 'E_CONTENT_TYPE', headers: { ...bearer(b.token) } },
    ];
    for (const a of attempts) {
      const res = await send(b.url, '/v1/tools/call', { method: 'POST', headers: a.headers, body });
      expect({ why: a.why, status: res.status, code: (res.json().error as { code: string }).code }).toEqual({
        why: a.why,
        status: a.status,
        code: a.code,
      });
    }
    expect(b.pool.spawned).toBe(0);
    // The same request done right works, including the charset parameter.
    const ok = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: { ...bearer(b.token), 'content-type': 'application/json; charset=utf-8', origin: ORIGIN },
      body,
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ output: 'hi' });
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(b.pool.spawned).toBe(1);
  });

  it('refuses a workspace outside the roots and a request that tries to move the paths, spawning nothing', async () => {
    const { b, dirs, workspace } = await bridge();
    const outside = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: callBody('/tmp'),
    });
    expect(outside.status).toBe(403);
    expect((outside.json().error as { code: string }).code).toBe('E_WORKSPACE_DENIED');
    const escape = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: callBody(`${workspace}/..`),
    });
    expect(escape.status).toBe(403);
    const moved = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'echo', arguments: {}, workspace, paths: { ...dirs, data_dir: '/tmp/elsewhere' } }),
    });
    expect((moved.json().error as { code: string }).code).toBe('E_PATHS_FIXED');
    expect(b.pool.spawned).toBe(0);
  });

  it('answers CORS preflights only for allowed origins, with the Private Network opt-in', async () => {
    const { b } = await bridge();
    const pre = {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
      'access-control-request-private-network': 'true',
    };
    const ok = await send(b.url, '/v1/tools/call', { method: 'OPTIONS', headers: { ...pre, origin: ORIGIN } });
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-allow-private-network']).toBe('true');
    const evil = await send(b.url, '/v1/tools/call', {
      method: 'OPTIONS',
      headers: { ...pre, origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a declared 49 MiB body with 413 under the default 48 MiB cap, before reading it', async () => {
    const { b } = await bridge();
    const res = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: { ...json(b.token), 'content-length': String(49 * 1024 * 1024) },
      chunks: async function* () {
        yield Buffer.alloc(10);
      },
    });
    expect(res.status).toBe(413);
    expect(b.pool.spawned).toBe(0);
  });

  it('refuses bodies over the cap with 413, whether declared or streamed', async () => {
    const { b } = await bridge({ maxBodyBytes: 1024 * 1024 });
    const declared = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: { ...json(b.token), 'content-length': String(2 * 1024 * 1024) },
      chunks: async function* () {
        yield Buffer.alloc(10);
      },
    });
    expect(declared.status).toBe(413);
    const streamed = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: { ...json(b.token), 'transfer-encoding': 'chunked' },
      chunks: async function* () {
        for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 0x20);
      },
    });
    expect(streamed.status).toBe(413);
    expect((streamed.json().error as { code: string }).code).toBe('E_BODY_TOO_LARGE');
    expect(b.pool.spawned).toBe(0);
  });
});

describe('pairing and the bridge file', () => {
  it('exchanges the one-time code for a working token once, and locks after wrong guesses', async () => {
    const { b } = await bridge();
    const pair = (code: string) =>
      send(b.url, '/v1/pair', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ code }),
      });
    const wrong = await pair('AAAAAAAA');
    expect(wrong.status).toBe(401);
    const good = await pair(`${b.pairingCode.slice(0, 4)}-${b.pairingCode.slice(4)}`);
    expect(good.status).toBe(200);
    const token = good.json().token as string;
    expect(token).not.toBe(b.token);
    const status = await send(b.url, '/v1/status', { headers: { ...bearer(token), origin: ORIGIN } });
    expect(status.status).toBe(200);
    expect(status.json().roots).toEqual(b.core.roots);
    const again = await pair(b.pairingCode);
    expect(again.status).toBe(410);
  });

  it('locks pairing after five wrong codes', async () => {
    const { b } = await bridge();
    const pair = (code: string) =>
      send(b.url, '/v1/pair', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
    for (let i = 0; i < 5; i++) expect((await pair('WRONGWRONG')).status).toBe(401);
    expect((await pair(b.pairingCode)).status).toBe(429);
  });

  it('writes {url, token, pid} with mode 0600 and removes it on close', async () => {
    const { b, dirs } = await bridge();
    const file = join(dirs.runtime_dir, 'bridge.json');
    expect(b.bridgeFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: b.url, token: b.token, pid: process.pid });
    await b.close();
    expect(existsSync(file)).toBe(false);
  });

  it('serves the same API on [::1] with a matching Host', async () => {
    const { b } = await bridge();
    const v6 = await send(`http://[::1]:${b.port}`, '/v1/status', { headers: bearer(b.token) }).catch(() => undefined);
    if (v6) expect(v6.status).toBe(200); // a host without IPv6 is tolerated
  });
});

describe('endpoints', () => {
  it('shows public schemas and hook events, never exec or cwd', async () => {
    const { b } = await bridge();
    const res = await send(b.url, '/v1/manifest', { headers: bearer(b.token) });
    const text = res.body;
    expect(text).not.toContain('exec');
    expect(text).not.toContain('cwd');
    expect(text).not.toContain('node-worker');
    const m = res.json() as { tools: { name: string }[]; hooks: unknown[]; provider: boolean };
    expect(m.tools.map((t) => t.name)).toEqual(['echo', 'workspace_info', 'word_count', 'web_fetch']);
    expect(m.hooks).toEqual([{ events: ['before_turn'] }]);
    expect(m.provider).toBe(true);
  });

  it('runs Python and Node example workers, hooks in order and the provider contract v1', async () => {
    const { b, workspace } = await bridge();
    const call = (path: string, body: unknown) =>
      send(b.url, path, { method: 'POST', headers: json(b.token), body: JSON.stringify(body) });
    expect(
      (await call('/v1/tools/call', { name: 'word_count', arguments: { text: 'one two  three' }, workspace })).json(),
    ).toEqual({ output: '3' });
    const info = JSON.parse(
      (await call('/v1/tools/call', { name: 'workspace_info', arguments: {}, workspace })).json().output as string,
    );
    expect(info.workspace).toBe(workspace);
    expect(info.workspace_id).toMatch(/^[0-9a-f-]{36}$/);
    const again = JSON.parse(
      (await call('/v1/tools/call', { name: 'workspace_info', arguments: {}, workspace })).json().output as string,
    );
    expect(again.workspace_id).toBe(info.workspace_id);
    expect((await call('/v1/hooks/run', { event: 'before_turn', data: { messages: [] } })).json()).toEqual({
      data: { messages: [], word_count_seen: true },
    });
    expect((await call('/v1/hooks/run', { event: 'finish', data: { messages: [1] } })).json()).toEqual({
      data: { messages: [1] },
    });
    const prepared = (
      await call('/v1/provider/prepare', {
        data: { version: 1, protocol: 'toy', base_url: 'https://api.example/v1', model: 'm', history: [] },
      })
    ).json();
    expect(prepared).toMatchObject({ data: { version: 1, url: 'https://api.example/v1/chat/completions' } });
    const wrongVersion = await call('/v1/provider/prepare', { data: { version: 2, protocol: 'toy' } });
    expect(wrongVersion.status).toBe(400);
    const unknown = await call('/v1/tools/call', { name: 'nope', arguments: {}, workspace });
    expect(unknown.status).toBe(404);
  });

  it('refuses a tool call body with unknown fields (strict at the boundary)', async () => {
    const { b, workspace } = await bridge({ callTimeoutMs: 300 });
    const res = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'echo', arguments: { text: 7 }, workspace, extra: 1 }),
    });
    expect(res.status).toBe(400);
    expect((res.json().error as { code: string }).code).toBe('E_BODY_INVALID');
  });

  it('answers with Content-Length over one kept-alive connection, and closes it only after a refusal', async () => {
    const { b, workspace } = await bridge();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const call = (token: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const body = callBody(workspace);
        const req = http.request(
          `${b.url}/v1/tools/call`,
          { method: 'POST', agent, headers: { ...json(token), 'content-length': Buffer.byteLength(body) } },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on('end', () => resolve(res));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const first = await call(b.token);
      expect(first.headers['content-length']).toBe(String(Buffer.byteLength('{"output":"hi"}')));
      expect(first.headers['transfer-encoding']).toBeUndefined();
      expect(first.headers.connection).toBe('keep-alive');
      expect(first.headers['keep-alive']).toBe('timeout=30');
      await call(b.token);
      expect(sockets.size).toBe(1);
      const refused = await call('x'.repeat(43));
      expect(refused.statusCode).toBe(401);
      expect(refused.headers.connection).toBe('close');
    } finally {
      agent.destroy();
    }
  });

  it('close() leaves no worker process behind', async () => {
    const { b, workspace } = await bridge();
    await send(b.url, '/v1/tools/call', { method: 'POST', headers: json(b.token), body: callBody(workspace) });
    await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'word_count', arguments: { text: 'a' }, workspace }),
    });
    const pids = b.pool.workers.map((w) => w.pid!);
    expect(pids).toHaveLength(2);
    await b.close();
    const { isAlive, waitFor } = await import('./fixtures/support');
    expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });
});
