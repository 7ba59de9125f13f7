// A custom provider worker's operation plans (seed 003): with provider_operations the core runs the plan's
// operation (key attached by the core, body from base64) and calls prepare again with operation_result and state;
// without it the plan is refused naming the key; a 9th operation in one step and a cross-origin plan are refused
// before anything is sent; a worker's malformed plan is refused with E_PROVIDER_INVALID.
import { describe, expect, it, vi } from 'vitest';
import { bridgeProviderAdapter } from '../bridge-client/provider-adapter';
import type { BridgeClient } from '../bridge-client/client';
import type { PrepareInput } from '../providers';
import { withOperationPlans, type PlanContext } from './operation-plans';
import { FileRegistry, memoryRegistryStore } from './registry';

const BASE = 'https://svc.example.test';
const input: PrepareInput = {
  version: 1,
  protocol: 'my-service',
  base_url: BASE,
  model: 'm',
  history: [{ role: 'user', content: 'hi' }],
  max_tokens: 16,
  compact: false,
  tools: [],
  plugin_tools: [],
  use_max_tokens: false,
  extra_body: {},
  stream: false,
};
const plan = (url = `${BASE}/upload`) => ({
  version: 1,
  operation: {
    method: 'POST',
    url,
    headers: { 'x-kind': 'up' },
    auth: { header: 'x-key', prefix: '' },
    content_type: 'application/octet-stream',
    body_base64: btoa('raw bytes'),
  },
  state: { n: 1 },
});
const prepared = (id: unknown) => ({
  version: 1,
  url: `${BASE}/ask`,
  body: { file: id },
  headers: {},
  auth: { header: 'x-key', prefix: '' },
});

function worker(answers: (data: Record<string, unknown>) => Record<string, unknown>) {
  const seen: Record<string, unknown>[] = [];
  const client = {
    provider: async (_step: string, data: Record<string, unknown>) => (seen.push(data), answers(data)),
  } as unknown as BridgeClient;
  return { seen, adapter: bridgeProviderAdapter({ protocol: 'my-service', client: () => client }) };
}

function ports() {
  const getSecret = vi.fn(() => 'secret-1');
  const fetch = vi.fn(
    async (_u: string | URL | Request, _i?: RequestInit) =>
      new Response(JSON.stringify({ id: 'up-1' }), { status: 201 }),
  );
  const p: PlanContext = {
    ports: { apiKeyName: 'SVC_KEY', getSecret, fetch: fetch as unknown as typeof globalThis.fetch },
    cleanupAllowed: false,
    registry: new FileRegistry(memoryRegistryStore()),
    scope: 'svc#SVC_KEY',
  };
  return { getSecret, fetch, p };
}

describe('operation plans of a custom provider worker', () => {
  it('runs the plan with the key and the raw body, then prepares again with operation_result and state', async () => {
    const w = worker((d) =>
      d.operation_result ? prepared((d.operation_result as { body: { id: string } }).body.id) : plan(),
    );
    const t = ports();
    const out = await withOperationPlans(w.adapter, t.p).prepare(input);
    expect(out).toMatchObject({ url: `${BASE}/ask`, body: { file: 'up-1' } });
    const [url, init] = t.fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/upload`);
    expect(init).toMatchObject({
      method: 'POST',
      redirect: 'error',
      headers: { 'x-kind': 'up', 'x-key': 'secret-1', 'content-type': 'application/octet-stream' },
    });
    expect(new TextDecoder().decode(init!.body as Uint8Array)).toBe('raw bytes');
    expect(w.seen[1]).toMatchObject({ operation_result: { status: 201, body: { id: 'up-1' } }, state: { n: 1 } });
    expect(JSON.stringify(w.seen)).not.toContain('secret-1');
  });

  it('without provider_operations a plan is refused naming the key, and nothing is sent', async () => {
    const w = worker(() => plan());
    await expect(w.adapter.prepare(input)).rejects.toMatchObject({
      code: 'E_PROVIDER_OPERATIONS_OFF',
      message: expect.stringContaining('"provider_operations": true'),
    });
  });

  it('refuses the 9th operation of a step and a cross-origin plan before reading the key', async () => {
    const endless = worker(() => plan());
    const t = ports();
    await expect(withOperationPlans(endless.adapter, t.p).prepare(input)).rejects.toMatchObject({
      code: 'E_PROVIDER_OPERATION_LIMIT',
    });
    expect(t.fetch).toHaveBeenCalledTimes(8);
    const away = worker(() => plan('https://elsewhere.test/upload'));
    const u = ports();
    await expect(withOperationPlans(away.adapter, u.p).prepare(input)).rejects.toMatchObject({
      code: 'E_ORIGIN_MISMATCH',
    });
    expect(u.getSecret).not.toHaveBeenCalled();
    expect(u.fetch).not.toHaveBeenCalled();
  });

  it('refuses a malformed plan from the worker', async () => {
    const w = worker(() => ({ ...plan(), operation: { ...plan().operation, body_base64: 'not base64!' } }));
    await expect(withOperationPlans(w.adapter, ports().p).prepare(input)).rejects.toMatchObject({
      code: 'E_PROVIDER_INVALID',
    });
  });
});
