// `npm run bench`: what untrusted pages cost a running bridge (issue 13). The bridge's /v1/status latency while
// web_fetch calls of 1 MB hostile pages (served by a local server) are fetched and converted, vs the same requests
// on an idle bridge (target ≤ 2 on the median; p95 and max printed). Everything runs in this process, as in
// bridge.bench.ts: the bridge, the page server and the clients share one event loop, so a conversion that never
// yielded would show up directly in the status latency. The conversion's own CPU time is net/html-to-text.bench.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText } from '../net';
import { HOSTILE, PLAIN, quantile } from '../net/fixtures/hostile-pages';
import { fmt, report } from '../scripts/bench-kit';
import { KeepAliveClient } from './fixtures/keep-alive-client';
import { tempDirs } from './fixtures/support';
import { startBridge, type RunningBridge } from './start-bridge';

let bridge: RunningBridge;
let pages: http.Server;
let pagesUrl: string;
let workspace: string;

beforeAll(async () => {
  const t = tempDirs();
  workspace = t.root;
  pages = http.createServer((req, res) => {
    const body =
      Object.values(HOSTILE)[Number(new URL(req.url ?? '/', 'http://x').searchParams.get('i') ?? 0)] ?? PLAIN;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  bridge = await startBridge({
    port: 0,
    roots: [workspace],
    dirs: t.dirs,
    writeBridgeFile: false,
    webFetch: { enabled: true, allowPrivate: true },
    webTimeoutMs: 60_000,
    env: { PATH: process.env.PATH },
  });
});
afterAll(async () => {
  await bridge.close();
  await new Promise<void>((r) => pages.close(() => r()));
});

describe('untrusted pages against the bridge', () => {
  it('/v1/status latency while web_fetch converts 1 MB hostile pages vs idle', async () => {
    const auth = { Authorization: `Bearer ${bridge.token}`, 'Content-Type': 'application/json' };
    const status = new KeepAliveClient(bridge.port);
    const fetcher = new KeepAliveClient(bridge.port);
    const timeStatus = async () => {
      const t = performance.now();
      const r = await status.request('GET', '/v1/status', auth);
      if (r.status !== 200) throw new Error(`status ${r.status}: ${r.body}`);
      return performance.now() - t;
    };
    const fetchOnce = async (i: number) => {
      const body = JSON.stringify({ name: 'web_fetch', arguments: { url: `${pagesUrl}/?i=${i}` }, workspace });
      const r = await fetcher.request('POST', '/v1/tools/call', auth, body);
      if (r.status !== 200) throw new Error(`web_fetch ${r.status}: ${r.body.slice(0, 300)}`);
    };
    const shapes = Object.keys(HOSTILE).length;
    for (let i = 0; i < shapes; i++) await fetchOnce(i); // warm the fetch and conversion paths
    for (let i = 0; i < 50; i++) await timeStatus();

    const idle: number[] = [];
    const busy: number[] = [];
    let fetches = 0;
    let fetchMs = 0;
    // Alternate idle and busy phases so machine noise hits both alike.
    for (let round = 0; round < 6; round++) {
      for (let k = 0; k < 100; k++) idle.push(await timeStatus());
      let running = true;
      const load = (async () => {
        const t = performance.now();
        for (let i = 0; i < shapes; i++, fetches++) await fetchOnce(i);
        fetchMs += performance.now() - t;
        running = false;
      })();
      while (running) busy.push(await timeStatus());
      await load;
    }
    status.close();
    fetcher.close();
    const sync = performance.now();
    htmlToText(HOSTILE['<a href=…> repeated']!);
    const syncMs = performance.now() - sync;
    report(
      '/v1/status latency during web_fetch of 1 MB hostile pages vs idle (median)',
      `busy ${fmt(quantile(busy, 0.5))} (p95 ${fmt(quantile(busy, 0.95))}, max ${fmt(Math.max(...busy))}, ${busy.length} requests during ${fetches} fetches of ${fmt(fetchMs / fetches)} each) vs idle ${fmt(quantile(idle, 0.5))} (p95 ${fmt(quantile(idle, 0.95))}, max ${fmt(Math.max(...idle))}); one conversion without pauses takes ${fmt(syncMs)}`,
      quantile(busy, 0.5) / quantile(idle, 0.5),
      2,
    );
    expect(busy.length).toBeGreaterThan(0);
  });
});
