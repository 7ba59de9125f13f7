// A request the bridge cannot hand to a worker is the request's fault: it is refused with a code and the
// healthy worker (same pid) serves the next call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, send } from './fixtures/http';
import { fixturesDir, tempDirs } from './fixtures/support';
import { MAX_JSON_DEPTH } from './limits';
import { startBridge, type RunningBridge } from './start-bridge';

const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

async function bridge() {
  const { root, dirs } = tempDirs();
  const workspace = join(root, 'project');
  mkdirSync(workspace);
  const manifest = join(root, 'desktop.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      tools: [
        {
          name: 'echo',
          parameters: { type: 'object' },
          exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'echo'],
        },
      ],
    }),
  );
  const b = await startBridge({
    port: 0,
    roots: [workspace],
    manifestPath: manifest,
    dirs,
    env: { PATH: process.env.PATH },
    writeBridgeFile: false,
  });
  running.push(b);
  const call = (args: string) =>
    send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: `{"name":"echo","workspace":${JSON.stringify(workspace)},"arguments":${args}}`,
    });
  const pid = async () => {
    const res = await call('{}');
    expect(res.status).toBe(200);
    return (JSON.parse(res.json().output as string) as { pid: number }).pid;
  };
  return { b, call, pid };
}

const nested = (depth: number) => `{"v":${'['.repeat(depth - 1)}0${']'.repeat(depth - 1)}}`;

describe('requests that cannot be serialised for a worker', () => {
  it('refuses JSON nested 100000 deep with 400 E_BODY_TOO_DEEP, and the worker keeps serving with the same pid', async () => {
    const { b, call, pid } = await bridge();
    const before = await pid();
    const res = await call(nested(100_000));
    expect(res.status).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'E_BODY_TOO_DEEP', data: { limit: MAX_JSON_DEPTH } });
    expect(await pid()).toBe(before);
    expect(b.pool.spawned).toBe(1);
  });

  it('passes a body exactly at the depth limit to the worker, and refuses one level more', async () => {
    const { call } = await bridge();
    // The body itself is one level, "arguments" another: the arguments may nest MAX - 1 more.
    expect((await call(nested(MAX_JSON_DEPTH - 1))).status).toBe(200);
    expect((await call(nested(MAX_JSON_DEPTH))).json().error).toMatchObject({ code: 'E_BODY_TOO_DEEP' });
  });

  it('answers a worker result too deep to encode again with 502 E_RESULT_UNSERIALISABLE, not a 500', async () => {
    const { root, dirs } = tempDirs();
    const manifest = join(root, 'desktop.json');
    writeFileSync(
      manifest,
      JSON.stringify({
        hooks: [{ events: ['before_turn'], exec: [process.execPath, join(fixturesDir, 'hostile-worker.mjs'), 'deep'] }],
      }),
    );
    const b = await startBridge({
      port: 0,
      roots: [root],
      manifestPath: manifest,
      dirs,
      env: { PATH: process.env.PATH },
      writeBridgeFile: false,
    });
    running.push(b);
    const res = await send(b.url, '/v1/hooks/run', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ event: 'before_turn', data: { x: 1 }, workspace: root }),
    });
    expect(res.status).toBe(502);
    expect(res.json().error).toMatchObject({ code: 'E_RESULT_UNSERIALISABLE' });
    expect(res.body.length).toBeLessThan(1000);
  });
});
