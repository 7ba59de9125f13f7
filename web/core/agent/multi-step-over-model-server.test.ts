// The loop wired to the real transport and adapters, against the scripted model server, for each protocol.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { DEFAULT_APPROVAL } from '../approval';
import { HookPipeline } from '../hooks';
import { ToolRegistry } from '../tools/registry';
import { memoryFs } from './__fixtures__/memory-fs';
import { readTool, writeTool } from './__fixtures__/tools';
import { runTurn } from './loop';
import { transportStream } from '../transport/stream-call';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROTOCOLS: WireProtocol[] = ['openai', 'deepseek', 'anthropic', 'responses'];

describe.each(PROTOCOLS)('multi-step tool use over %s', (protocol) => {
  it('reads, writes after approval is refused, and answers; the key goes only where api_key_env says', async () => {
    server = await startModelServer({
      script: [
        {
          text: 'Reading.',
          toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }],
          usage: { input: 50, output: 10 },
        },
        { toolCalls: [{ name: 'write', arguments: { path: 'b.txt', text: 'x' } }] },
        { text: 'a.txt says hello; I could not write b.txt.' },
      ],
    });
    const tools = new ToolRegistry();
    const log: string[] = [];
    tools.register(readTool(log));
    tools.register(writeTool(log));
    const hooks = new HookPipeline();
    const seen: string[] = [];
    hooks.register({
      name: 'spy',
      source: 'profile',
      events: ['before_request', 'after_response'],
      handle: (e, d) => (seen.push(e), d),
    });
    const fs = memoryFs({ 'a.txt': 'hello' });
    const stream = runTurn(
      {
        model: {
          protocol,
          base_url: server.baseUrl(protocol),
          model: 'scripted',
          max_tokens: 256,
          use_max_tokens: false,
          extra_body: {},
          budget: null,
        },
        history: [],
        content: 'What does a.txt say? Then write b.txt.',
      },
      {
        stream: transportStream({
          apiKeyName: 'TEST_KEY',
          getSecret: (n) => (n === 'TEST_KEY' ? 'sk-test-123' : undefined),
        }),
        tools,
        hooks,
        approval: DEFAULT_APPROVAL,
        fs,
        workspaceId: 'ws',
      },
    );
    const result = await stream.result();
    expect(server.failures).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('a.txt says hello; I could not write b.txt.');
    expect(log).toEqual(['read a.txt']);
    expect(result.toolCalls.map((c) => [c.name, c.ran, c.code ?? null])).toEqual([
      ['read', true, null],
      ['write', false, 'E_APPROVAL_REQUIRED'],
    ]);
    expect(server.requests).toHaveLength(3);
    // The tool result travelled back to the model in the protocol's own shape.
    expect(server.requests[1]!.rawBody).toContain('hello');
    expect(server.requests[2]!.rawBody).toContain('E_APPROVAL_REQUIRED');
    const auth = server.requests[0]!.headers[protocol === 'anthropic' ? 'x-api-key' : 'authorization'];
    expect(auth).toContain('sk-test-123');
    expect(seen).toEqual([
      'before_request',
      'after_response',
      'before_request',
      'after_response',
      'before_request',
      'after_response',
    ]);
  });
});
