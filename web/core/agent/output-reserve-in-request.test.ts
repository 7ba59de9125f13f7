// Seed 002: the request's output limit is set or tightened to budget.output_reserve, on the real adapters of all
// four built-in protocols (the body as the scripted model server received it).
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { DEFAULT_APPROVAL } from '../approval';
import { HookPipeline } from '../hooks';
import { ToolRegistry } from '../tools/registry';
import { memoryFs } from './__fixtures__/memory-fs';
import { DEFAULT_BUDGET, requestMaxTokens } from './budget';
import { runTurn } from './loop';
import { transportStream } from '../transport/stream-call';
import type { ModelSettings } from './types';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROTOCOLS: WireProtocol[] = ['openai', 'deepseek', 'anthropic', 'responses'];
/** Where each wire API carries the output limit. */
const FIELD: Record<WireProtocol, string> = {
  openai: 'max_completion_tokens',
  deepseek: 'max_tokens',
  anthropic: 'max_tokens',
  responses: 'max_output_tokens',
};

async function sentLimit(protocol: WireProtocol, maxTokens: number, reserve: number | null): Promise<unknown> {
  server = await startModelServer({ script: [{ text: 'ok' }] });
  const model: ModelSettings = {
    protocol,
    base_url: server.baseUrl(protocol),
    model: 'scripted',
    max_tokens: maxTokens,
    use_max_tokens: false,
    extra_body: {},
    budget: reserve === null ? null : { ...DEFAULT_BUDGET, context_window: 100_000, max_tokens: reserve },
  };
  const result = await runTurn(
    { model, history: [], content: 'hi' },
    {
      stream: transportStream({ apiKeyName: null }),
      tools: new ToolRegistry(),
      hooks: new HookPipeline(),
      approval: DEFAULT_APPROVAL,
      fs: memoryFs({}),
      workspaceId: 'ws',
    },
  ).result();
  expect(result.error).toBeUndefined();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!.body?.[FIELD[protocol]];
}

describe.each(PROTOCOLS)('output limit sent over %s', (protocol) => {
  it('is tightened to output_reserve when max_tokens asks for more than the budget reserved', async () => {
    expect(await sentLimit(protocol, 8000, 1000)).toBe(1000);
  });

  it('stays at max_tokens when it is already within the reserve, and without a budget', async () => {
    expect(await sentLimit(protocol, 500, 1000)).toBe(500);
    await server?.close();
    expect(await sentLimit(protocol, 8000, null)).toBe(8000);
  });
});

describe('requestMaxTokens', () => {
  it('never asks for more than the reserve, and never for zero (providers refuse a zero limit)', () => {
    expect(requestMaxTokens({ max_tokens: 4096, budget: { max_tokens: 512 } })).toBe(512);
    expect(requestMaxTokens({ max_tokens: 256, budget: { max_tokens: 512 } })).toBe(256);
    expect(requestMaxTokens({ max_tokens: 4096, budget: null })).toBe(4096);
    expect(requestMaxTokens({ max_tokens: 4096, budget: { max_tokens: 0 } })).toBe(1);
  });
});
