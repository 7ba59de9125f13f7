// An operation's answer can fail while it is read, after the headers came: it gets the same stable codes as a fetch
// that failed (cut off: E_PROVIDER_OPERATION_NETWORK; over 16 MiB: E_PROVIDER_OPERATION_TOO_LARGE; Stop: E_ABORTED),
// and a person's Stop during an upload is not a failed upload: the image is uploaded at the next step, not sent base64.
import { describe, expect, it } from 'vitest';
import type { PrepareInput, ProviderOperation } from '../providers';
import { builtinAdapter } from '../providers';
import { newFilesContext, withProviderFiles } from './files-adapter';
import { MAX_OPERATION_BYTES, newBudget, runOperation } from './operations';
import { filesPolicy } from './provider-json';
import { FileRegistry, memoryRegistryStore } from './registry';

const BASE = 'https://api.example.test/v1';
const get: ProviderOperation = { method: 'GET', url: `${BASE}/files`, headers: {}, auth: null };

/** An answer whose body sends `first`, then fails with `error` (or waits for `signal` to abort it). */
function answer(first: Uint8Array, end: { error: Error } | { signal: AbortSignal }): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(first);
      if ('error' in end) c.error(end.error);
      else
        end.signal.addEventListener('abort', () =>
          c.error(new DOMException('The operation was aborted.', 'AbortError')),
        );
    },
  });
  return new Response(body, { status: 200 });
}

const code = (p: Promise<unknown> | unknown) =>
  Promise.resolve(p).then(
    () => null,
    (e: { code?: string }) => e.code ?? String(e),
  );

describe("errors while reading an operation's answer", () => {
  it('an answer cut off half-way is E_PROVIDER_OPERATION_NETWORK, one over 16 MiB is E_PROVIDER_OPERATION_TOO_LARGE', async () => {
    const cut: typeof fetch = async () =>
      answer(new TextEncoder().encode('{"data": ['), { error: new TypeError('terminated') });
    expect(await code(runOperation(get, { baseUrl: BASE, apiKeyName: null, fetch: cut }, newBudget()))).toBe(
      'E_PROVIDER_OPERATION_NETWORK',
    );
    const big: typeof fetch = async () => new Response(new Uint8Array(MAX_OPERATION_BYTES + 1), { status: 200 });
    expect(await code(runOperation(get, { baseUrl: BASE, apiKeyName: null, fetch: big }, newBudget()))).toBe(
      'E_PROVIDER_OPERATION_TOO_LARGE',
    );
  });

  it('a Stop while the answer arrives is E_ABORTED, and the upload is tried again at the next step', async () => {
    const stop = new AbortController();
    let uploads = 0;
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      uploads++;
      if (uploads === 1) {
        setTimeout(() => stop.abort(), 10);
        return answer(new TextEncoder().encode('{"id": '), { signal: init!.signal! });
      }
      return new Response(JSON.stringify({ id: 'file-2', bytes: 3, created_at: 1 }), { status: 200 });
    };
    const policy = filesPolicy({
      provider: { images: 'files', account_scope: null, expires_after_seconds: null },
      providerOperations: true,
      protocol: 'responses',
      baseUrl: BASE,
      apiKeyName: null,
    });
    const ctx = newFilesContext(policy, new FileRegistry(memoryRegistryStore()), { apiKeyName: null, fetch });
    const input: PrepareInput = {
      version: 1,
      protocol: 'responses',
      base_url: BASE,
      model: 'm',
      history: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAEC' } }] }],
      max_tokens: 16,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: false,
      extra_body: {},
      stream: false,
    };

    expect(await code(withProviderFiles(builtinAdapter('responses'), ctx, stop.signal).prepare(input))).toBe(
      'E_ABORTED',
    );
    expect(ctx.failed.size).toBe(0);
    const next = await withProviderFiles(builtinAdapter('responses'), ctx, new AbortController().signal).prepare(input);
    expect(uploads).toBe(2);
    expect(JSON.stringify(next.body)).toContain('"file_id":"file-2"');
  });
});
