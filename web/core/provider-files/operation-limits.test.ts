// The operation executor's rules (seed 003 附加操作合约): 8 per step, 180 s, 16 MiB each, never retried, and every
// refusal (cross-origin, forbidden header, a body on GET/DELETE, too large) happens before the key is read.
import { describe, expect, it, vi } from 'vitest';
import type { ProviderOperation } from '../providers';
import {
  MAX_OPERATION_BYTES,
  MAX_OPERATIONS_PER_STEP,
  newBudget,
  OPERATIONS_WINDOW_MS,
  runOperation,
  type OperationPorts,
} from './operations';

const BASE = 'https://api.example.test/v1';
const post = (bytes: number, extra: Partial<ProviderOperation> = {}): ProviderOperation => ({
  method: 'POST',
  url: `${BASE}/files`,
  headers: {},
  auth: { header: 'authorization', prefix: 'Bearer ' },
  content_type: 'application/octet-stream',
  body: new Uint8Array(bytes),
  ...extra,
});

function ports(overrides: Partial<OperationPorts> = {}) {
  const getSecret = vi.fn(() => 'sk-secret');
  const fetch = vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify({ id: 'file-1' }), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  return {
    getSecret,
    fetch,
    p: {
      baseUrl: BASE,
      apiKeyName: 'KEY',
      getSecret,
      fetch: fetch as unknown as typeof globalThis.fetch,
      ...overrides,
    },
  };
}

async function refusal(op: ProviderOperation, p: OperationPorts) {
  return runOperation(op, p, newBudget()).then(
    () => null,
    (e: { code: string }) => e.code,
  );
}

describe('provider operation limits', () => {
  it('sends a body of exactly 16 MiB and refuses 16 MiB + 1 byte before reading the key', async () => {
    const ok = ports();
    await expect(runOperation(post(MAX_OPERATION_BYTES), ok.p, newBudget())).resolves.toMatchObject({ status: 200 });
    expect((ok.fetch.mock.calls[0]![1]!.body as Uint8Array).byteLength).toBe(16 * 1024 * 1024);
    const big = ports();
    expect(await refusal(post(MAX_OPERATION_BYTES + 1), big.p)).toBe('E_PROVIDER_OPERATION_TOO_LARGE');
    expect(big.getSecret).not.toHaveBeenCalled();
    expect(big.fetch).not.toHaveBeenCalled();
  });

  it('runs 8 operations in a step and refuses the 9th without sending it', async () => {
    const t = ports();
    const budget = newBudget();
    for (let i = 0; i < MAX_OPERATIONS_PER_STEP; i++) await runOperation(post(10), t.p, budget);
    await expect(runOperation(post(10), t.p, budget)).rejects.toMatchObject({ code: 'E_PROVIDER_OPERATION_LIMIT' });
    expect(t.fetch).toHaveBeenCalledTimes(8);
    // A new step starts counting again.
    await runOperation(post(10), t.p, newBudget());
    expect(t.fetch).toHaveBeenCalledTimes(9);
  });

  it("refuses an operation 180 s after the step's first one, and allows one just before", async () => {
    let now = 1_000_000;
    const t = ports({ now: () => now });
    const budget = newBudget();
    await runOperation(post(1), t.p, budget);
    now += OPERATIONS_WINDOW_MS - 1;
    await runOperation(post(1), t.p, budget);
    now += 1;
    await expect(runOperation(post(1), t.p, budget)).rejects.toMatchObject({ code: 'E_PROVIDER_OPERATION_TIMEOUT' });
    expect(t.fetch).toHaveBeenCalledTimes(2);
  });

  it('refuses a cross-origin target before the key is read', async () => {
    const t = ports();
    expect(await refusal(post(1, { url: 'https://evil.example.test/v1/files' }), t.p)).toBe('E_ORIGIN_MISMATCH');
    expect(await refusal(post(1, { url: 'http://api.example.test/v1/files' }), t.p)).toBe('E_ORIGIN_MISMATCH');
    expect(t.getSecret).not.toHaveBeenCalled();
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('refuses routing/transport headers and a second auth header before the key is read', async () => {
    const t = ports();
    for (const name of [
      'Host',
      'Content-Type',
      'Content-Length',
      'Transfer-Encoding',
      'Connection',
      'Proxy-Authorization',
    ]) {
      expect(await refusal(post(1, { headers: { [name]: 'x' } }), t.p)).toBe('E_HEADER_FORBIDDEN');
    }
    expect(await refusal(post(1, { headers: { Authorization: 'Bearer other' } }), t.p)).toBe('E_HEADER_FORBIDDEN');
    expect(await refusal(post(1, { content_type: 'text/html' }), t.p)).toBe('E_PROVIDER_OPERATION_INVALID');
    expect(t.getSecret).not.toHaveBeenCalled();
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('GET and DELETE send an empty body: one with a body is refused', async () => {
    const t = ports();
    expect(
      await refusal(
        { method: 'DELETE', url: `${BASE}/files/f`, headers: {}, auth: null, body: new Uint8Array(1) },
        t.p,
      ),
    ).toBe('E_PROVIDER_OPERATION_INVALID');
    await runOperation({ method: 'GET', url: `${BASE}/files`, headers: {}, auth: null }, t.p, newBudget());
    expect(t.fetch.mock.calls[0]![1]).toMatchObject({ method: 'GET', redirect: 'error' });
    expect(t.fetch.mock.calls[0]![1]!.body).toBeUndefined();
  });

  it('attaches the key only on a passing operation, and never retries a failure', async () => {
    const t = ports();
    await runOperation(post(3), t.p, newBudget());
    expect((t.fetch.mock.calls[0]![1]!.headers as Record<string, string>).authorization).toBe('Bearer sk-secret');
    expect((t.fetch.mock.calls[0]![1]!.headers as Record<string, string>)['content-type']).toBe(
      'application/octet-stream',
    );
    const down = ports({
      fetch: vi.fn(async () => Promise.reject(new TypeError('fetch failed'))) as unknown as typeof fetch,
    });
    await expect(runOperation(post(3), down.p, newBudget())).rejects.toMatchObject({
      code: 'E_PROVIDER_OPERATION_NETWORK',
    });
    expect(down.p.fetch).toHaveBeenCalledTimes(1);
    const busy = ports({
      fetch: vi.fn(
        async () => new Response('{"error":{"message":"busy"}}', { status: 503 }),
      ) as unknown as typeof fetch,
    });
    await expect(runOperation(post(3), busy.p, newBudget())).resolves.toMatchObject({ status: 503 });
    expect(busy.p.fetch).toHaveBeenCalledTimes(1);
  });

  it('refuses a redirect answer', async () => {
    const t = ports({
      fetch: vi.fn(
        async () => new Response(null, { status: 307, headers: { location: 'https://elsewhere.test/' } }),
      ) as unknown as typeof fetch,
    });
    expect(await refusal(post(1), t.p)).toBe('E_REDIRECT_REFUSED');
  });
});
