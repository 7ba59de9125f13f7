// What a client without a token can cost the bridge: a bounded /v1/pair body, heads and requests with deadlines,
// and a connection cap that sheds unauthenticated sockets first, so a flood cannot lock the paired app out.
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, send } from './fixtures/http';
import { KeepAliveClient } from './fixtures/keep-alive-client';
import { examplesDir, tempDirs, waitFor } from './fixtures/support';
import { PAIR_MAX_BODY_BYTES } from './limits';
import { startBridge, type BridgeOptions, type RunningBridge } from './start-bridge';

const running: RunningBridge[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const b of running.splice(0)) await b.close();
});

async function bridge(extra: Partial<BridgeOptions> = {}) {
  const { root, dirs } = tempDirs();
  const workspace = join(root, 'project');
  mkdirSync(workspace);
  const b = await startBridge({
    port: 0,
    roots: [workspace],
    manifestPath: join(examplesDir, 'desktop.json'),
    dirs,
    env: { PATH: process.env.PATH },
    writeBridgeFile: false,
    ...extra,
  });
  running.push(b);
  return { b, workspace };
}

/** A raw connection that records what the server answered and whether it closed. */
function raw(port: number): {
  socket: net.Socket;
  answer: () => string;
  closed: () => boolean;
  connected: Promise<void>;
} {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  let answer = '';
  let closed = false;
  socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return {
    socket,
    answer: () => answer,
    closed: () => closed,
    connected: new Promise((r) => socket.once('connect', () => r())),
  };
}

describe('/v1/pair before authentication', () => {
  it('refuses a body over 4 KiB with 413 and closes the connection', async () => {
    const { b } = await bridge();
    const body = JSON.stringify({ code: 'x'.repeat(PAIR_MAX_BODY_BYTES) });
    const res = await send(b.url, '/v1/pair', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(413);
    expect((res.json().error as { code: string }).code).toBe('E_BODY_TOO_LARGE');
    expect(res.headers.connection).toBe('close');
    // A small wrong code is still read and judged (the cap is on bytes, not on pairing).
    const small = await send(b.url, '/v1/pair', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'AAAA-AAAA' }),
    });
    expect((small.json().error as { code: string }).code).toBe('E_PAIRING_WRONG');
  });

  it('stops reading an endless chunked body at 4 KiB: the sender is cut off long before it is done', async () => {
    const { b } = await bridge();
    const c = raw(b.port);
    await c.connected;
    c.socket.write(
      `POST /v1/pair HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.concat([Buffer.from(`10000\r\n`), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
    let sent = 0;
    // 40 MiB, under the 48 MiB cap of other endpoints: a server without the pair cap would read all of it and wait.
    const total = 40 * 1024 * 1024;
    while (sent < total && !c.closed()) {
      if (!c.socket.write(chunk))
        await new Promise((r) => {
          c.socket.once('drain', r);
          c.socket.once('close', r);
        });
      sent += chunk.byteLength;
    }
    expect(await waitFor(() => c.closed(), 5000)).toBe(true);
    expect(c.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(c.answer()).toContain('E_BODY_TOO_LARGE');
    // What was sent beyond 4 KiB sits in socket buffers (a few MiB on loopback), never in the bridge.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('/v1/pair on a connection that already authenticated', () => {
  it('answers a 1 MiB pair body sent after two authenticated calls on the same keep-alive socket within 2 s (413, then close)', async () => {
    const { b, workspace } = await bridge();
    const c = raw(b.port);
    await c.connected;
    const call = JSON.stringify({ name: 'echo', arguments: { text: 'a' }, workspace });
    for (let i = 0; i < 2; i++) {
      const before = c.answer().length;
      c.socket.write(
        `POST /v1/tools/call HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nAuthorization: Bearer ${b.token}\r\nContent-Type: application/json\r\nContent-Length: ${call.length}\r\n\r\n${call}`,
      );
      expect(await waitFor(() => c.answer().slice(before).includes('{"output":"a"}'))).toBe(true);
    }
    expect(c.closed()).toBe(false);
    const before = c.answer().length;
    const pair = JSON.stringify({ code: 'x'.repeat(1024 * 1024) });
    c.socket.write(
      `POST /v1/pair HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nContent-Type: application/json\r\nContent-Length: ${pair.length}\r\n\r\n${pair}`,
    );
    expect(await waitFor(() => c.closed(), 2000)).toBe(true);
    // The refusal itself, when it reached the socket before the close (the client may instead see a reset).
    const answer = c.answer().slice(before);
    if (answer) expect(answer).toMatch(/^HTTP\/1\.1 413 [^]*E_BODY_TOO_LARGE/);
  });
});

describe('deadlines for heads and requests', () => {
  it('cuts a slowloris head (a header line every 50 ms) at the headers timeout with 408', async () => {
    const { b } = await bridge({ serverLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = raw(b.port);
    await c.connected;
    c.socket.write(`GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\n`);
    const drip = setInterval(() => c.closed() || c.socket.write('X-Drip: 1\r\n'), 50);
    try {
      expect(await waitFor(() => c.closed(), 5000)).toBe(true);
    } finally {
      clearInterval(drip);
    }
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a byte at the headers timeout', async () => {
    const { b } = await bridge({ serverLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = raw(b.port);
    await c.connected;
    expect(await waitFor(() => c.closed(), 5000)).toBe(true);
  });

  it('cuts a /v1/pair body that trickles in at the request timeout', async () => {
    const { b } = await bridge({ serverLimits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const c = raw(b.port);
    await c.connected;
    c.socket.write(
      `POST /v1/pair HTTP/1.1\r\nHost: 127.0.0.1:${b.port}\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n`,
    );
    const drip = setInterval(() => c.closed() || c.socket.write(' '), 50);
    try {
      expect(await waitFor(() => c.closed(), 5000)).toBe(true);
    } finally {
      clearInterval(drip);
    }
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps an idle authenticated keep-alive connection past the headers timeout', async () => {
    const { b, workspace } = await bridge({
      serverLimits: { headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveMs: 5000 },
    });
    const client = new KeepAliveClient(b.port);
    try {
      const body = JSON.stringify({ name: 'echo', arguments: { text: 'a' }, workspace });
      expect((await client.request('POST', '/v1/tools/call', json(b.token), body)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 600));
      expect((await client.request('POST', '/v1/tools/call', json(b.token), body)).status).toBe(200);
    } finally {
      client.close();
    }
  });
});

describe('the connection cap', () => {
  it('a flood of idle connections cannot lock out the paired app: new and existing authenticated requests still work', async () => {
    const max = 8;
    const { b, workspace } = await bridge({ serverLimits: { maxConnections: max } });
    const body = JSON.stringify({ name: 'echo', arguments: { text: 'a' }, workspace });
    const before = new KeepAliveClient(b.port);
    try {
      expect((await before.request('POST', '/v1/tools/call', json(b.token), body)).status).toBe(200);
      const flood = Array.from({ length: 3 * max }, () => raw(b.port));
      await Promise.all(flood.map((c) => c.connected));
      // At most the cap stays open: the oldest unauthenticated sockets were closed to make room.
      expect(await waitFor(() => flood.filter((c) => !c.closed()).length <= max - 1)).toBe(true);
      // The app's existing connection survived, and a fresh one is served.
      expect((await before.request('POST', '/v1/tools/call', json(b.token), body)).status).toBe(200);
      const fresh = await send(b.url, '/v1/tools/call', { method: 'POST', headers: json(b.token), body });
      expect(fresh.status).toBe(200);
    } finally {
      before.close();
    }
  });
});
