// One operation budget per model call (seed 003: 8 operations within 180 s per step): when the vendor says a
// referenced file is gone and the call is made once more, the re-uploads count against the same budget as the first
// attempt's, so one step never runs more than 8 operations. Against the scripted server's Files endpoints.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import type { ModelCall } from '../agent/types';
import type { PrepareInput, StreamEvent } from '../providers';
import { newFilesContext } from './files-adapter';
import { providerFilesStream } from './files-stream';
import { MAX_OPERATIONS_PER_STEP } from './operations';
import { filesPolicy } from './provider-json';
import { FileRegistry, memoryRegistryStore } from './registry';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Five different small PNG-signed images. */
const images = Array.from(
  { length: 5 },
  (_, i) =>
    `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, i)]).toString('base64')}`,
);

describe('the "file not found" retry of a model call', () => {
  it(`shares the call's budget: ${MAX_OPERATIONS_PER_STEP} uploads in all, the rest of the retry goes base64`, async () => {
    server = await startModelServer({ script: [{ text: 'Seen.' }], files: {} });
    const s = server;
    let modelCalls = 0;
    // Before the first model request the vendor loses every upload, so that request is answered "file not found".
    const fetch: typeof globalThis.fetch = async (url, init) => {
      if (String(url).endsWith('/responses') && modelCalls++ === 0)
        for (const f of s.files!.list()) s.files!.expire(f.id);
      return globalThis.fetch(url, init);
    };
    const base = s.baseUrl('responses');
    const policy = filesPolicy({
      provider: { images: 'files', account_scope: null, expires_after_seconds: null },
      providerOperations: true,
      protocol: 'responses',
      baseUrl: base,
      apiKeyName: null,
    });
    const files = newFilesContext(policy, new FileRegistry(memoryRegistryStore()), { apiKeyName: null, fetch });
    const input: PrepareInput = {
      version: 1,
      protocol: 'responses',
      base_url: base,
      model: 'm',
      history: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            ...images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
          ],
        },
      ],
      max_tokens: 64,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: false,
      extra_body: {},
      stream: true,
    };
    const events: StreamEvent[] = [];
    for await (const e of providerFilesStream({ apiKeyName: null, fetch, files })({
      input,
      signal: new AbortController().signal,
    } as unknown as ModelCall))
      events.push(e);

    expect(s.files!.uploads).toBe(MAX_OPERATIONS_PER_STEP);
    expect(modelCalls).toBe(2);
    const retry = JSON.stringify(s.requests.filter((r) => r.protocol !== null)[1]!.body);
    expect(retry.match(/"file_id"/g)).toHaveLength(MAX_OPERATIONS_PER_STEP - images.length);
    expect(retry.match(/data:image\/png;base64/g)).toHaveLength(
      images.length - (MAX_OPERATIONS_PER_STEP - images.length),
    );
    expect(events.at(-1)).toMatchObject({ type: 'done' });
  });
});
