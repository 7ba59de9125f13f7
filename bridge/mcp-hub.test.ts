import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, send } from './fixtures/http';
import { examplesDir, isAlive, tempDirs, waitFor } from './fixtures/support';
import { startBridge, type RunningBridge } from './start-bridge';

const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

describe('MCP stdio servers', () => {
  it('exposes a real SDK server’s tools through the bridge endpoints and stops it on close', async () => {
    const { root, dirs } = tempDirs();
    const b = await startBridge({
      port: 0, roots: [root], dirs, env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-secret' },
      mcpServers: { demo: { command: [process.execPath, join(examplesDir, 'mcp-server.mjs')], cwd: examplesDir } },
    });
    running.push(b);
    const manifest = (await send(b.url, '/v1/manifest', { headers: json(b.token) })).json() as { tools: { name: string; parameters: { type: string; properties: Record<string, unknown> } }[] };
    const add = manifest.tools.find((t) => t.name === 'mcp__demo__add');
    expect(add?.parameters.type).toBe('object');
    expect(Object.keys(add!.parameters.properties)).toEqual(['a', 'b']);
    const call = (name: string, args: unknown) => send(b.url, '/v1/tools/call', { method: 'POST', headers: json(b.token), body: JSON.stringify({ name, arguments: args, workspace: root }) });
    expect((await call('mcp__demo__add', { a: 2, b: 40 })).json()).toEqual({ output: '42' });
    const failed = await call('mcp__demo__shout', { text: '' });
    expect(failed.status).toBe(502);
    expect(failed.json().error).toMatchObject({ code: 'E_MCP_TOOL_ERROR', message: 'nothing to shout' });
    expect((await call('mcp__demo__shout', { text: 'hi' })).json()).toEqual({ output: 'HI' });
    const pids = b.mcp.pids;
    expect(pids).toHaveLength(1);
    await b.close();
    expect(await waitFor(() => pids.every((p) => !isAlive(p)))).toBe(true);
  });
});
