import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, send } from './fixtures/http';
import { examplesDir, fixturesDir, isAlive, tempDirs, waitFor } from './fixtures/support';
import { startBridge, type RunningBridge } from './start-bridge';

const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

describe('MCP stdio servers', () => {
  it('exposes a real SDK server’s tools through the bridge endpoints and stops it on close', async () => {
    const { root, dirs } = tempDirs();
    const b = await startBridge({
      port: 0,
      roots: [root],
      dirs,
      env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret' },
      mcpServers: { demo: { command: [process.execPath, join(examplesDir, 'mcp-server.mjs')], cwd: examplesDir } },
    });
    running.push(b);
    const manifest = (await send(b.url, '/v1/manifest', { headers: json(b.token) })).json() as {
      tools: { name: string; parameters: { type: string; properties: Record<string, unknown> } }[];
    };
    const add = manifest.tools.find((t) => t.name === 'mcp__demo__add');
    expect(add?.parameters.type).toBe('object');
    expect(Object.keys(add!.parameters.properties)).toEqual(['a', 'b']);
    const call = (name: string, args: unknown) =>
      send(b.url, '/v1/tools/call', {
        method: 'POST',
        headers: json(b.token),
        body: JSON.stringify({ name, arguments: args, workspace: root }),
      });
    expect((await call('mcp__demo__add', { a: 2, b: 40 })).json()).toEqual({ output: '42' });
    const failed = await call('mcp__demo__shout', { text: '' });
    expect(failed.status).toBe(502);
    expect(failed.json().error).toMatchObject({ code: 'E_MCP_TOOL_ERROR', message: 'nothing to shout' });
    expect((await call('mcp__demo__shout', { text: 'hi' })).json()).toEqual({ output: 'HI' });
    const pids = b.mcp.pids;
    expect(pids).toHaveLength(1);
    await b.close();
    expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
    // A call that races the shutdown starts nothing again.
    await expect(b.mcp.call('mcp__demo__add', { a: 1, b: 1 })).rejects.toMatchObject({ code: 'E_BRIDGE_CLOSED' });
    expect(b.mcp.pids).toEqual([]);
  });
});

describe('MCP server processes', () => {
  it('run in their own process group with exactly the scrubbed worker environment, and the whole group dies on close', async () => {
    const { root, dirs } = tempDirs();
    // Variables the SDK's default transport would add on its own (from the bridge's process.env).
    const added = { LOGNAME: 'someone', SHELL: '/bin/sh', TERM: 'xterm', USER: 'someone' };
    const saved = Object.fromEntries(Object.keys(added).map((k) => [k, process.env[k]]));
    Object.assign(process.env, added);
    let b: RunningBridge;
    try {
      b = await startBridge({
        port: 0,
        roots: [root],
        dirs,
        killGraceMs: 100,
        env: {
          PATH: process.env.PATH,
          HOME: '/home/probe',
          OPENAI_API_KEY: 'sk-secret',
          NODE_OPTIONS: '--require /nope.js',
          ...added,
        },
        mcpServers: {
          probe: { command: [process.execPath, join(fixturesDir, 'mcp-probe-server.mjs')], cwd: fixturesDir },
        },
      });
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    running.push(b);
    const res = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'mcp__probe__probe', arguments: {}, workspace: root }),
    });
    const probe = JSON.parse(res.json().output as string) as {
      env: Record<string, string>;
      pid: number;
      pgid: number;
      grandchild: number;
    };
    // Exactly seed 000 §2's list (HOME because it was present): nothing is added to mark the process as ours.
    expect(Object.keys(probe.env).sort()).toEqual([
      'HOME',
      'I_CACHE_DIR',
      'I_CONFIG_DIR',
      'I_DATA_DIR',
      'I_RUNTIME_DIR',
      'PATH',
      'PYTHONUTF8',
    ]);
    expect(probe.env.HOME).toBe('/home/probe');
    expect(probe.env.I_DATA_DIR).toBe(dirs.data_dir);
    expect(probe.pgid).toBe(probe.pid); // its own group, not the bridge's
    expect(isAlive(probe.grandchild)).toBe(true);
    // Recorded for a later bridge start to reap should this one be SIGKILLed.
    const record = JSON.parse(readFileSync(join(dirs.runtime_dir, 'groups', `${process.pid}.json`), 'utf8')) as {
      groups: { pgid: number }[];
    };
    expect(record.groups.map((g) => g.pgid)).toContain(probe.pid);
    await b.close();
    expect(await waitFor(() => !isAlive(probe.pid) && !isAlive(probe.grandchild))).toBe(true);
    // The group leaves the record once it has been sent SIGKILL, which can come after the processes died of SIGTERM.
    expect(await waitFor(() => !existsSync(join(dirs.runtime_dir, 'groups', `${process.pid}.json`)))).toBe(true);
  });
});
