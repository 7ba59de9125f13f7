// MCP stdio messages are cut by the bridge's own frame reader: linear in the bytes, refused at the 48 MiB limit.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeError } from './errors';
import { json, send } from './fixtures/http';
import { fixturesDir, tempDirs } from './fixtures/support';
import { MAX_FRAME_BYTES } from './limits';
import { McpFrameDecoder } from './mcp-stdio-transport';
import { startBridge, type RunningBridge } from './start-bridge';

function decoder(max: number) {
  const messages: unknown[] = [];
  const errors: BridgeError[] = [];
  const d = new McpFrameDecoder(
    max,
    (m) => messages.push(m),
    (e) => errors.push(e),
  );
  return { d, messages, errors };
}

/** A JSON-RPC result whose line (newline included) is exactly `bytes` long. */
function messageOfSize(bytes: number): Buffer {
  const shell = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: '' } });
  return Buffer.from(`${shell.replace('""', `"${'x'.repeat(bytes - shell.length - 1)}"`)}\n`);
}

const pushInChunks = (d: McpFrameDecoder, bytes: Buffer, size = 64 * 1024) => {
  for (let at = 0; at < bytes.length; at += size) d.push(bytes.subarray(at, at + size));
};

describe('MCP frame decoding', () => {
  it('accepts a message of exactly 48 MiB arriving in 64 KiB chunks, and refuses one byte more', () => {
    const ok = decoder(MAX_FRAME_BYTES);
    pushInChunks(ok.d, messageOfSize(MAX_FRAME_BYTES));
    expect(ok.errors).toEqual([]);
    expect(ok.messages).toHaveLength(1);
    expect((ok.messages[0] as { result: { text: string } }).result.text.length).toBeGreaterThan(MAX_FRAME_BYTES - 100);

    const over = decoder(MAX_FRAME_BYTES);
    pushInChunks(over.d, messageOfSize(MAX_FRAME_BYTES + 1));
    expect(over.messages).toEqual([]);
    expect(over.errors.map((e) => e.code)).toEqual(['E_MCP_FRAME_TOO_LARGE']);
  });

  it('splits several messages in one chunk and a message across chunks, CRLF included', () => {
    const { d, messages, errors } = decoder(1024);
    const a = '{"jsonrpc":"2.0","id":1,"result":{}}';
    const b = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}';
    d.push(Buffer.from(`${a}\r\n${a}\n${b.slice(0, 10)}`));
    d.push(Buffer.from(`${b.slice(10)}\n`));
    expect(errors).toEqual([]);
    expect(messages).toEqual([JSON.parse(a), JSON.parse(a), JSON.parse(b)]);
  });

  it('stops at a line that is not JSON-RPC with E_MCP_PROTOCOL and a short quote of it', () => {
    const { d, messages, errors } = decoder(1024 * 1024);
    d.push(Buffer.from(`server v1 ready ${'!'.repeat(100_000)}\n{"jsonrpc":"2.0","id":1,"result":{}}\n`));
    expect(messages).toEqual([]);
    expect(errors.map((e) => e.code)).toEqual(['E_MCP_PROTOCOL']);
    expect(errors[0]!.message.length).toBeLessThan(400);
  });
});

const running: RunningBridge[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

describe('an MCP server answering over the limit', () => {
  it('fails the call with E_MCP_FRAME_TOO_LARGE, and the next call gets a fresh server', async () => {
    const { root, dirs } = tempDirs();
    const b = await startBridge({
      port: 0,
      roots: [root],
      dirs,
      env: { PATH: process.env.PATH },
      writeBridgeFile: false,
      killGraceMs: 50,
      maxFrameBytes: 1024 * 1024,
      mcpServers: {
        probe: { command: [process.execPath, join(fixturesDir, 'mcp-probe-server.mjs')], cwd: fixturesDir },
      },
    });
    running.push(b);
    const call = (bytes: number) =>
      send(b.url, '/v1/tools/call', {
        method: 'POST',
        headers: json(b.token),
        body: JSON.stringify({ name: 'mcp__probe__big', arguments: { bytes }, workspace: root }),
      });
    const first = b.mcp.pids;
    const over = await call(2 * 1024 * 1024);
    expect(over.status).toBe(502);
    expect(over.json().error).toMatchObject({ code: 'E_MCP_FRAME_TOO_LARGE', data: { limit: 1024 * 1024 } });
    const fine = await call(512 * 1024);
    expect(fine.status).toBe(200);
    expect((fine.json().output as string).length).toBe(512 * 1024);
    expect(b.mcp.pids).not.toEqual(first);
  });
});

describe('an MCP server answering with a huge error', () => {
  it('fails the call with a short error that quotes the start of the message, controls escaped', async () => {
    const { root, dirs } = tempDirs();
    const b = await startBridge({
      port: 0,
      roots: [root],
      dirs,
      env: { PATH: process.env.PATH },
      writeBridgeFile: false,
      killGraceMs: 50,
      mcpServers: {
        boom: { command: [process.execPath, join(fixturesDir, 'mcp-error-server.mjs')], cwd: fixturesDir },
      },
    });
    running.push(b);
    const r = await send(b.url, '/v1/tools/call', {
      method: 'POST',
      headers: json(b.token),
      body: JSON.stringify({ name: 'mcp__boom__boom', arguments: {}, workspace: root }),
    });
    expect(r.status).toBe(502);
    const error = r.json().error as { code: string; message: string };
    expect(error.code).toBe('E_MCP_CALL_FAILED');
    expect(error.message.length).toBeLessThan(2500);
    expect(error.message).toContain('\\x1b[31m');
    expect(error.message).not.toContain('\u001b');
    expect(error.message).toMatch(/\(\d{7} characters\)/);
  });
});
