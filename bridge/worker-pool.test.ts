import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError } from './errors';
import { hostile, isAlive, tempDirs, waitFor } from './fixtures/support';
import { WorkerPool } from './worker-pool';

const pools: WorkerPool[] = [];
const makePool = (extra: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) => {
  const pool = new WorkerPool({ dirs: tempDirs().dirs, callTimeoutMs: 5000, killGraceMs: 100, ...extra });
  pools.push(pool);
  return pool;
};
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

const request = (args: Record<string, unknown> = {}) => ({
  event: 'tool',
  workspace: '/w',
  data: { name: 't', arguments: args },
});
const pidOf = (data: Record<string, unknown>) => (JSON.parse(data.output as string) as { pid: number }).pid;

async function failure(promise: Promise<unknown>): Promise<BridgeError> {
  try {
    await promise;
  } catch (error) {
    if (BridgeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('worker pool protocol violations', () => {
  const cases: [string, string][] = [
    ['banner', 'E_WORKER_PROTOCOL'],
    ['wrong-id', 'E_WORKER_PROTOCOL'],
    ['non-object', 'E_WORKER_PROTOCOL'],
    ['error-frame', 'E_WORKER_ERROR'],
    ['big-output', 'E_WORKER_FRAME_TOO_LARGE'],
    ['no-newline', 'E_WORKER_PROTOCOL'],
  ];
  it.each(cases)('%s: the call fails with %s, the worker is evicted and its process gone', async (mode, code) => {
    const pool = makePool();
    const target = hostile(mode);
    const error = await failure(pool.call(target, request()));
    expect(error.code).toBe(code);
    expect(pool.spawned).toBe(1);
    expect(pool.workers).toHaveLength(0);
    // The next call starts a fresh worker (and fails the same way: nothing is reused).
    await failure(pool.call(target, request()));
    expect(pool.spawned).toBe(2);
  });

  it('an answer with a 4 MiB id fails with a short error that quotes only its start', async () => {
    const error = await failure(makePool().call(hostile('huge-id'), request()));
    expect(error.code).toBe('E_WORKER_PROTOCOL');
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain('(4194308 characters)');
  });

  it('a healthy worker is reused, and after an eviction the next call gets a fresh process', async () => {
    const pool = makePool();
    const echo = hostile('echo');
    const a = pidOf(await pool.call(echo, request()));
    const b = pidOf(await pool.call(echo, request()));
    expect(a).toBe(b);
    pool.workers[0]!.evict();
    await waitFor(() => !isAlive(a));
    expect(isAlive(a)).toBe(false);
    const c = pidOf(await pool.call(echo, request()));
    expect(c).not.toBe(a);
    expect(pool.spawned).toBe(2);
  });

  it('one worker per workspace: the same argv for two workspaces runs two processes', async () => {
    const pool = makePool();
    const a = pidOf(await pool.call(hostile('echo'), { ...request(), workspace: '/a' }));
    const b = pidOf(await pool.call(hostile('echo'), { ...request(), workspace: '/b' }));
    expect(a).not.toBe(b);
  });

  it('a 49 MiB request frame is refused as a request error and the same worker serves the next call', async () => {
    const pool = makePool();
    const echo = hostile('echo');
    const first = pidOf(await pool.call(echo, request()));
    const error = await failure(pool.call(echo, request({ blob: 'x'.repeat(49 * 1024 * 1024) })));
    expect(error.code).toBe('E_REQUEST_FRAME_TOO_LARGE');
    expect(pidOf(await pool.call(echo, request({ small: true })))).toBe(first);
    expect(pool.spawned).toBe(1);
  });

  it.each([
    [
      'a cycle',
      () => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      },
    ],
    ['a BigInt', () => ({ n: 10n })],
    [
      'nesting past the stack',
      () => {
        let v: unknown = 0;
        for (let i = 0; i < 200_000; i++) v = [v];
        return { v };
      },
    ],
  ])(
    'a request with %s that cannot be serialised is refused; the healthy worker keeps its pid',
    async (_what, make) => {
      const pool = makePool();
      const echo = hostile('echo');
      const first = pidOf(await pool.call(echo, request()));
      const error = await failure(pool.call(echo, request(make())));
      expect(error.code).toBe('E_REQUEST_UNSERIALISABLE');
      expect(error.message.length).toBeLessThan(600);
      expect(pidOf(await pool.call(echo, request()))).toBe(first);
      expect(pool.spawned).toBe(1);
    },
  );

  it('output written between calls evicts the worker before anyone trusts it again', async () => {
    const pool = makePool();
    const target = hostile('late-output');
    await pool.call(target, request());
    expect(await waitFor(() => pool.workers.length === 0)).toBe(true);
  });

  it('memory stays bounded while a worker streams a frame without end', async () => {
    const pool = makePool({ maxFrameBytes: 48 * 1024 * 1024 });
    let peak = 0;
    const base = process.memoryUsage().arrayBuffers;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers - base)), 5);
    try {
      const error = await failure(pool.call(hostile('big-output'), request()));
      expect(error.code).toBe('E_WORKER_FRAME_TOO_LARGE');
    } finally {
      clearInterval(sampler);
    }
    // The frame cap is 48 MiB; an unbounded reader would hold all 49 MiB plus concat copies.
    expect(peak).toBeLessThan(100 * 1024 * 1024);
  });
});

describe('worker pool deadlines and process groups', () => {
  it('a hung worker with a grandchild is killed at the deadline and the whole group is gone', async () => {
    const pool = makePool({ callTimeoutMs: 400 });
    const target = hostile('hang');
    const { pid, grandchild } = JSON.parse((await pool.call(target, request())).output as string) as {
      pid: number;
      grandchild: number;
    };
    expect(isAlive(grandchild)).toBe(true);
    const started = Date.now();
    const error = await failure(pool.call(target, request({ hang: true })));
    expect(error.code).toBe('E_WORKER_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(await waitFor(() => !isAlive(pid) && !isAlive(grandchild))).toBe(true);
  });

  it('a worker that traps SIGTERM is killed anyway, with its grandchild', async () => {
    const pool = makePool({ callTimeoutMs: 300, killGraceMs: 400 });
    const target = hostile('trap-sigterm');
    const { pid, grandchild } = JSON.parse((await pool.call(target, request())).output as string) as {
      pid: number;
      grandchild: number;
    };
    const error = await failure(pool.call(target, request({ hang: true })));
    expect(error.code).toBe('E_WORKER_TIMEOUT');
    await new Promise((r) => setTimeout(r, 50));
    expect(isAlive(pid)).toBe(true); // SIGTERM was ignored...
    expect(await waitFor(() => !isAlive(pid) && !isAlive(grandchild))).toBe(true); // ...SIGKILL was not
  });

  it('a crash mid-call is reported with its signal and the call is not replayed', async () => {
    const { root } = tempDirs();
    const log = join(root, 'calls.log');
    writeFileSync(log, '');
    const pool = makePool();
    const error = await failure(pool.call(hostile('crash', log), request()));
    expect(error.code).toBe('E_WORKER_CRASHED');
    expect(error.data?.signal).toBe('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['1']);
    expect(pool.spawned).toBe(1);
  });

  it('concurrent calls to one worker are serialised, never overlapping', async () => {
    const pool = makePool();
    const target = hostile('slow');
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.call(target, request({ n }))));
    const spans = results.map(
      (r) => JSON.parse(r.output as string) as { pid: number; start: number; end: number; n: number },
    );
    expect(new Set(spans.map((s) => s.pid)).size).toBe(1);
    expect(spans.map((s) => s.n)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  });

  it('a call that waits in the queue longer than the per-call budget fails unsent, and the worker keeps serving', async () => {
    const log = join(tempDirs().root, 'calls.log');
    writeFileSync(log, '');
    const pool = makePool({ callTimeoutMs: 500 });
    const target = hostile('slow', log);
    const pid = pidOf(await pool.call(target, request({ n: 0, ms: 1 }))); // started: spawning is not part of the test
    // Each call takes 300 ms, within its own 500 ms; the third one would reach the worker only after 600 ms.
    const calls = [1, 2, 3].map((n) => pool.call(target, request({ n, ms: 300 })));
    const third = failure(calls[2]!);
    const [first, second] = await Promise.all(calls.slice(0, 2));
    const queued = await third;
    expect(queued.code).toBe('E_WORKER_QUEUE_TIMEOUT');
    expect(queued.message).toMatch(/was not sent/);
    expect([pidOf(first!), pidOf(second!)]).toEqual([pid, pid]);
    await new Promise((r) => setTimeout(r, 150)); // the second call has finished: the third would have been sent by now
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['1', '2', '3']); // request ids: warm-up, first, second
    expect(pool.workers).toHaveLength(1); // a queue timeout evicts nothing
    expect(pidOf(await pool.call(target, request({ n: 4, ms: 1 })))).toBe(pid);
    expect(pool.spawned).toBe(1);
  });

  it('close() leaves no worker or grandchild process behind', async () => {
    const pool = makePool({ killGraceMs: 50 });
    const a = JSON.parse((await pool.call(hostile('hang'), request())).output as string) as {
      pid: number;
      grandchild: number;
    };
    const b = JSON.parse((await pool.call(hostile('trap-sigterm'), request())).output as string) as {
      pid: number;
      grandchild: number;
    };
    const c = pidOf(await pool.call(hostile('echo'), request()));
    pool.close();
    const pids = [a.pid, a.grandchild, b.pid, b.grandchild, c];
    expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
    await expect(pool.call(hostile('echo'), request())).rejects.toMatchObject({ code: 'E_BRIDGE_CLOSED' });
  });
});

describe('worker environment and stderr', () => {
  it('scrubs the environment to PATH, PYTHONUTF8, HOME-like variables and the four I_*_DIR', async () => {
    const { dirs } = tempDirs();
    const sourceEnv = {
      ...process.env,
      OPENAI_API_KEY: 'sk-secret',
      ANTHROPIC_API_KEY: 'sk-ant',
      NODE_OPTIONS: '--require /nope.js',
      I_APPROVAL_TOKEN: 't',
      HTTPS_PROXY: 'http://p',
      HOME: '/home/x',
      TMP: '/tmp',
    };
    const pool = makePool({ dirs, sourceEnv });
    const env = JSON.parse((await pool.call(hostile('env'), request())).output as string) as Record<string, string>;
    for (const leaked of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'NODE_OPTIONS', 'I_APPROVAL_TOKEN', 'HTTPS_PROXY'])
      expect(env[leaked]).toBeUndefined();
    expect(env.PYTHONUTF8).toBe('1');
    expect(env.HOME).toBe('/home/x');
    expect(env.TMP).toBe('/tmp');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.I_DATA_DIR).toBe(dirs.data_dir);
    expect(env.I_RUNTIME_DIR).toBe(dirs.runtime_dir);
    const allowed = new Set([
      'PATH',
      'PYTHONUTF8',
      'HOME',
      'TMP',
      'TEMP',
      'SystemRoot',
      'USERPROFILE',
      'I_CONFIG_DIR',
      'I_DATA_DIR',
      'I_CACHE_DIR',
      'I_RUNTIME_DIR',
    ]);
    // Only what the seed lists; the platform itself may add nothing else on Linux.
    expect(Object.keys(env).filter((k) => !allowed.has(k))).toEqual([]);
  });

  it('keeps only the last io_limit_bytes of stderr while draining all of it', async () => {
    const pool = makePool({ ioLimitBytes: 1000 });
    const result = await pool.call(hostile('stderr-flood'), request());
    expect(result.output).toBe('flooded');
    const worker = pool.workers[0]!;
    await waitFor(() => worker.stderrTail().includes('LAST-LINE'));
    const tail = worker.stderrTail();
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(1000);
    expect(tail.endsWith('LAST-LINE\n')).toBe(true);
  });
});
