// `npm run bench`: the bridge's overhead against talking NDJSON to the same worker directly from Node.
// 1. Tool-call round trip HTTP → bridge → worker → back vs a direct NDJSON round trip (target ≤ 2x).
//    HTTP/1.1 on loopback alone costs several direct pipe round trips on this machine, so the same run also
//    compares the bridge against a bare node:http echo server (the HTTP floor, no worker at all), and against a
//    minimal relay: bare node:http in front of a direct NDJSON client to the same worker program, with no checks.
//    bridge / relay is the bridge's own overhead (guards, auth, validation, pool, frame reader); the ideal is 1.
// 2. 1 MiB frames per second through the pool (byte-counted reader, validation) vs the same direct client.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare, fmt, report } from '../scripts/bench-kit';
import { examplesDir, tempDirs } from './fixtures/support';
import { startBridge, type RunningBridge } from './start-bridge';
import { WorkerPool } from './worker-pool';

/** The baseline: a minimal direct NDJSON client with no limits, checks or HTTP. */
class DirectClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((line: string) => void) | undefined;
  private id = 0;

  constructor() {
    this.child = spawn(process.execPath, [join(examplesDir, 'node-worker.mjs')], { cwd: examplesDir, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      const nl = this.buffer.indexOf(0x0a);
      if (nl === -1) return;
      const line = this.buffer.subarray(0, nl).toString('utf8');
      this.buffer = this.buffer.subarray(nl + 1);
      const w = this.waiting;
      this.waiting = undefined;
      w?.(line);
    });
  }

  call(text: string, workspace: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiting = (line) => resolve((JSON.parse(line) as { data: Record<string, unknown> }).data);
      this.child.stdin.write(`${JSON.stringify({ id: ++this.id, event: 'tool', workspace, data: { name: 'echo', arguments: { text } } })}\n`);
    });
  }

  close(): void {
    this.child.kill();
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function httpCall(b: { url: string; token: string }, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${b.url}/v1/tools/call`, { method: 'POST', agent, headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let bridge: RunningBridge;
let bare: http.Server;
let bareUrl: string;
let relay: http.Server;
let relayUrl: string;
let relayWorker: DirectClient;
let direct: DirectClient;
let pool: WorkerPool;
let workspace: string;

beforeAll(async () => {
  const t = tempDirs();
  workspace = t.root;
  bridge = await startBridge({ port: 0, roots: [workspace], dirs: t.dirs, manifestPath: join(examplesDir, 'desktop.json'), writeBridgeFile: false, env: { PATH: process.env.PATH } });
  direct = new DirectClient();
  pool = new WorkerPool({ dirs: t.dirs });
  bare = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"output":"hello"}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;
  relayWorker = new DirectClient();
  relay = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(parts).toString('utf8')) as { arguments: { text: string }; workspace: string };
      void relayWorker.call(call.arguments.text, call.workspace).then((data) => {
        const out = Buffer.from(JSON.stringify(data));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.byteLength });
        res.end(out);
      });
    });
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  relayUrl = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
});
afterAll(async () => {
  agent.destroy();
  direct.close();
  relayWorker.close();
  pool.close();
  await new Promise<void>((r) => relay.close(() => r()));
  await bridge.close();
  await new Promise<void>((r) => bare.close(() => r()));
});

describe('bridge benchmarks', () => {
  it('tool-call round trip through HTTP and the bridge vs direct NDJSON', async () => {
    const calls = 100;
    const body = JSON.stringify({ name: 'echo', arguments: { text: 'hello' }, workspace, workspace_id: '00000000-0000-4000-8000-000000000001' });
    // Warm every path (JIT tiers of the bridge and the workers, the sockets) before the first comparison: a
    // bridge is a long-running process, and without this the first comparison measures V8 warming up (2–3x).
    for (let i = 0; i < 2000; i++) await httpCall(bridge, body);
    for (let i = 0; i < 1000; i++) await direct.call('hello', workspace);
    for (let i = 0; i < 1000; i++) await httpCall({ url: bareUrl, token: 'x'.repeat(43) }, body);
    for (let i = 0; i < 1000; i++) await httpCall({ url: relayUrl, token: 'x'.repeat(43) }, body);
    const result = await compare(
      'bridge tool-call round trip (100 sequential calls)',
      { label: 'direct NDJSON', run: async () => { for (let i = 0; i < calls; i++) await direct.call('hello', workspace); } },
      { label: 'HTTP → bridge → worker', run: async () => { for (let i = 0; i < calls; i++) await httpCall(bridge, body); } },
      { runs: 11, warmup: 2, target: 2 },
    );
    console.log(`  per call: bridge ${fmt(result.candidateMs / calls)}, direct ${fmt(result.baselineMs / calls)}`);
    const floor = { url: bareUrl, token: 'x'.repeat(43) };
    await compare(
      'bridge overhead over bare node:http (100 sequential calls)',
      { label: 'bare node:http echo', run: async () => { for (let i = 0; i < calls; i++) await httpCall(floor, body); } },
      { label: 'HTTP → bridge → worker', run: async () => { for (let i = 0; i < calls; i++) await httpCall(bridge, body); } },
      { runs: 11, warmup: 2 },
    );
    await compare(
      'bridge own overhead over a minimal HTTP → NDJSON relay without checks (100 sequential calls)',
      { label: 'minimal relay', run: async () => { for (let i = 0; i < calls; i++) await httpCall({ url: relayUrl, token: floor.token }, body); } },
      { label: 'HTTP → bridge → worker', run: async () => { for (let i = 0; i < calls; i++) await httpCall(bridge, body); } },
      { runs: 11, warmup: 2, target: 1.25 },
    );
    // CPU time is steadier than wall time on a loaded machine: this process runs the client and the server side
    // of both (the workers are separate processes), so the difference is the bridge's own work per call.
    // Without workspace_id the bridge resolves the id from its registry (cached between calls).
    const noId = JSON.stringify({ name: 'echo', arguments: { text: 'hello' }, workspace });
    const cpu = { relay: [] as number[], bridge: [] as number[], registry: [] as number[] };
    const sides = [['relay', relayUrl, floor.token, body], ['bridge', bridge.url, bridge.token, body], ['registry', bridge.url, bridge.token, noId]] as const;
    for (let round = 0; round < 7; round++) {
      for (const [side, url, token, payload] of sides) {
        const start = process.cpuUsage();
        for (let i = 0; i < calls; i++) await httpCall({ url, token }, payload);
        const used = process.cpuUsage(start);
        cpu[side].push((used.user + used.system) / calls);
      }
    }
    const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
    report('bridge CPU per call (client + server in this process) vs minimal relay', `bridge ${mid(cpu.bridge).toFixed(0)} µs vs relay ${mid(cpu.relay).toFixed(0)} µs`, mid(cpu.bridge) / mid(cpu.relay));
    report('bridge CPU per call without workspace_id (registry) vs minimal relay', `bridge ${mid(cpu.registry).toFixed(0)} µs vs relay ${mid(cpu.relay).toFixed(0)} µs`, mid(cpu.registry) / mid(cpu.relay));
    expect(JSON.parse(await httpCall(bridge, body))).toEqual({ output: 'hello' });
    expect(JSON.parse(await httpCall({ url: relayUrl, token: floor.token }, body))).toEqual({ output: 'hello' });
  });

  it('1 MiB frames per second through the pool vs direct NDJSON', async () => {
    const text = 'x'.repeat(1024 * 1024 - 200);
    const frames = 20;
    const target = { argv: [process.execPath, join(examplesDir, 'node-worker.mjs')], cwd: examplesDir };
    const request = { event: 'tool', workspace, data: { name: 'echo', arguments: { text } } };
    const result = await compare(
      'bridge 1 MiB frames (20 round trips, 1 MiB each way)',
      { label: 'direct NDJSON', run: async () => { for (let i = 0; i < frames; i++) await direct.call(text, workspace); } },
      { label: 'worker pool', run: async () => { for (let i = 0; i < frames; i++) await pool.call(target, request); } },
      { runs: 7, warmup: 1 },
    );
    const fps = (ms: number) => (frames / ms) * 1000;
    report('bridge 1 MiB frames/s', `pool ${fps(result.candidateMs).toFixed(0)} frames/s vs direct ${fps(result.baselineMs).toFixed(0)} frames/s (each frame echoed back)`, result.ratio);
    expect(fps(result.candidateMs)).toBeGreaterThan(0);
  });
});
