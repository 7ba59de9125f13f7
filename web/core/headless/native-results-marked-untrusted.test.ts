// The native tool path marks every tool result the model sees as untrusted data (seed 002: "原生路径保持 Tool 消息
// … 两者都明确标记 untrusted_tool_data"), for the four built-in protocol selectors, in each wire shape (Chat tool
// message, Anthropic tool_result block, Responses function_call_output); the session log keeps the plain result.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { markedToolContent } from '../agent/native-marks';
import { headlessProject } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = Record<string, unknown>;
/** The text of the (single) tool result in a request body, in each protocol's own shape. */
function toolResultText(protocol: WireProtocol, body: Body): unknown {
  if (protocol === 'responses') return (body.input as Body[]).find((i) => i.type === 'function_call_output')?.output;
  if (protocol === 'anthropic') {
    const blocks = (body.messages as { content: unknown }[]).flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Body[]) : [],
    );
    const result = blocks.find((b) => b.type === 'tool_result');
    return typeof result?.content === 'string'
      ? result.content
      : (result?.content as Body[] | undefined)?.map((c) => c.text).join('');
  }
  return (body.messages as Body[]).find((m) => m.role === 'tool')?.content;
}

describe.each(['openai', 'deepseek', 'anthropic', 'responses'] as WireProtocol[])(
  'native tool results over %s',
  (protocol) => {
    it('reach the model with the untrusted_tool_data mark on their first line, and the session keeps them plain', async () => {
      server = await startModelServer({
        script: [{ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { text: 'It says 42.' }],
      });
      const project = headlessProject(
        {
          protocol,
          base_url: server.baseUrl(protocol),
          model: 'm',
          max_tokens: 256,
          budget: { context_window: 1_000_000 },
        },
        { 'a.txt': 'the answer is 42\n' },
      );
      const { code, stdout, stderr } = await project.run(['--session-name', 'marks', '-p', 'What does a.txt say?']);
      expect(server.failures).toEqual([]);
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('It says 42.');
      const sent = toolResultText(protocol, server.requests[1]!.body as Body);
      expect(sent).toBe(markedToolContent('     1\tthe answer is 42'));
      const log = readFileSync(join(project.dir, '.i', 'sessions', 'marks', 'log.ndjson'), 'utf8');
      const saved = log
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { entry: { message?: { role: string; content: string } } }).entry.message)
        .find((m) => m?.role === 'tool');
      expect(saved?.content).toBe('     1\tthe answer is 42');
    });
  },
);
