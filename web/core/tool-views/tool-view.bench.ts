// What a tool view costs when building a request (issue 17): 1,024 authorised schemas (built-ins plus big plugin
// and MCP sets), the view selected, re-checked and measured, then the openai request body prepared and serialised,
// showing 64 tools against showing 16. The selection walks the whole authorised set either way; what grows with the
// view is the schemas serialised (twice: the 4 MiB check and the body).
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import { openaiChatAdapter } from '../providers';
import type { Message } from '../contracts/messages';
import { ToolRegistry } from '../tools/registry';
import { groupedSelector, selectToolView, type ToolSelector } from './select';

function authorised(): ToolRegistry {
  const r = new ToolRegistry();
  for (let i = 0; i < 1024; i++) {
    const server = `s${i % 16}`;
    r.register({
      schema: {
        name: `${server}_tool_${i}`,
        description: `Tool ${i} of MCP server ${server}: ${'does one precise thing with the given path and options. '.repeat(4)}`,
        parameters: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'Workspace-relative path.' },
            limit: { type: 'integer', minimum: 1, maximum: 1000 },
            mode: { enum: ['fast', 'full'] },
          },
          required: ['path'],
          additionalProperties: false,
        },
      },
      approval: 'ask',
      external: true,
      origin: { kind: 'mcp', server },
      execute: async () => ({ output: '' }),
    });
  }
  return r;
}

const history: Message[] = [
  { role: 'system', content: 'You are a coding agent. '.repeat(40) },
  ...Array.from({ length: 20 }, (_, i): Message =>
    i % 2
      ? { role: 'assistant', content: `Answer ${i}. ${'It is fine. '.repeat(10)}` }
      : { role: 'user', content: `Question ${i}: ${'why does it fail '.repeat(8)}` },
  ),
];

it('building a request: 1,024 authorised schemas, 64 visible vs 16', async () => {
  const registry = authorised();
  // 16 tools = one MCP server's group (64 members) would be too many, so both sides name tools explicitly.
  const names = registry.names();
  const view = (n: number): ToolSelector =>
    groupedSelector({ names: names.filter((_, i) => i % 16 < n / 4).slice(0, n), groups: [] });
  const build = (selector: ToolSelector) => async () => {
    const { tools, pluginTools } = selectToolView(registry, selector);
    const req = await openaiChatAdapter.prepare({
      version: 1,
      protocol: 'openai',
      base_url: 'http://127.0.0.1:1/v1',
      model: 'm',
      history,
      max_tokens: 4096,
      compact: false,
      tools,
      plugin_tools: pluginTools,
      use_max_tokens: false,
      extra_body: {},
      stream: true,
    });
    return JSON.stringify(req.body);
  };
  const sixteen = view(16);
  const sixtyFour = view(64);
  if (
    selectToolView(registry, sixteen).pluginTools.length !== 16 ||
    selectToolView(registry, sixtyFour).pluginTools.length !== 64
  )
    throw new Error('the views are not 16 and 64 tools');
  await compare(
    'tool view: request with 1,024 authorised, 64 visible vs 16',
    { label: '16 visible', run: build(sixteen) },
    { label: '64 visible', run: build(sixtyFour) },
    { runs: 41, warmup: 10, target: 2 },
  );
});
