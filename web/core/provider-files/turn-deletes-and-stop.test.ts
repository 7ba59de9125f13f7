// A custom worker's plans during a turn (seed 003): a plain DELETE belongs to the management channel and is refused;
// a `cleanup: true` DELETE runs unattended only under provider_cleanup and only for a file this app uploaded (the
// registry records a plan's successful upload); and a person's Stop ends a running upload of a model call.
import { describe, expect, it, vi } from 'vitest';
import { bridgeProviderAdapter } from '../bridge-client/provider-adapter';
import type { BridgeClient } from '../bridge-client/client';
import type { PrepareInput, StreamEvent } from '../providers';
import type { ModelCall } from '../agent/types';
import { providerFilesStream } from './files-stream';
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
const KEY = { header: 'x-key', prefix: '' };
const upload = {
  version: 1,
  operation: {
    method: 'POST',
    url: `${BASE}/files`,
    headers: {},
    auth: KEY,
    content_type: 'application/octet-stream',
    body_base64: btoa('raw'),
  },
  state: 'up',
};
const remove = (id: string, cleanup?: boolean) => ({
  version: 1,
  operation: {
    method: 'DELETE',
    url: `${BASE}/files/${id}`,
    headers: {},
    auth: KEY,
    ...(cleanup === undefined ? {} : { cleanup }),
  },
  state: 'rm',
});
const prepared = { version: 1, url: `${BASE}/ask`, body: { q: 1 }, headers: {}, auth: KEY };

/** A worker answering its script in order, one answer per prepare call. */
function worker(script: Record<string, unknown>[]) {
  let n = 0;
  const client = { provider: async () => script[Math.min(n++, script.length - 1)] } as unknown as BridgeClient;
  return bridgeProviderAdapter({ protocol: 'my-service', client: () => client });
}

function context(
  cleanupAllowed: boolean,
  fetch = vi.fn(
    async (_u: string | URL | Request, i?: RequestInit) =>
      new Response(JSON.stringify(i?.method === 'POST' ? { id: 'up-1' } : { deleted: true }), { status: 200 }),
  ),
) {
  const plans: PlanContext = {
    ports: { apiKeyName: 'K', getSecret: () => 's', fetch: fetch as unknown as typeof globalThis.fetch },
    cleanupAllowed,
    registry: new FileRegistry(memoryRegistryStore()),
    scope: 'svc#K',
  };
  return { plans, fetch, methods: () => fetch.mock.calls.map((c) => c[1]?.method) };
}

describe('deletes a custom worker asks for during a turn', () => {
  it("refuses a plain DELETE (it needs the management channel's confirmation), sending nothing", async () => {
    const t = context(true);
    await expect(withOperationPlans(worker([remove('up-1'), prepared]), t.plans).prepare(input)).rejects.toMatchObject({
      code: 'E_PROVIDER_DELETE_IN_TURN',
    });
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('refuses a cleanup DELETE without provider_cleanup, naming the key, even of its own upload', async () => {
    const t = context(false);
    await expect(
      withOperationPlans(worker([upload, remove('up-1', true), prepared]), t.plans).prepare(input),
    ).rejects.toMatchObject({ code: 'E_PROVIDER_CLEANUP_OFF', data: { key: 'provider_cleanup' } });
    expect(t.methods()).toEqual(['POST']);
  });

  it('under provider_cleanup runs a cleanup DELETE only of a file this app uploaded, then forgets it', async () => {
    const stranger = context(true);
    await expect(
      withOperationPlans(worker([remove('file-theirs', true), prepared]), stranger.plans).prepare(input),
    ).rejects.toMatchObject({ code: 'E_PROVIDER_CLEANUP_NOT_OURS' });
    expect(stranger.fetch).not.toHaveBeenCalled();

    const ours = context(true);
    await withOperationPlans(worker([upload, prepared]), ours.plans).prepare(input);
    expect((await ours.plans.registry.all()).map((r) => [r.file_id, r.scope, r.protocol])).toEqual([
      ['up-1', 'svc#K', 'my-service'],
    ]);
    await expect(
      withOperationPlans(worker([remove('up-1', true), prepared]), ours.plans).prepare(input),
    ).resolves.toMatchObject({ url: `${BASE}/ask` });
    expect(ours.methods()).toEqual(['POST', 'DELETE']);
    expect(await ours.plans.registry.all()).toEqual([]);
  });

  it("does not count another account's record of the same file id as this app's upload", async () => {
    const t = context(true);
    await t.plans.registry.put({
      scope: 'other#K',
      hash: 'h',
      file_id: 'up-1',
      protocol: 'my-service',
      bytes: 1,
      media_type: 'x/y',
      created_at: 1,
      expires_at: null,
    });
    await expect(
      withOperationPlans(worker([remove('up-1', true), prepared]), t.plans).prepare(input),
    ).rejects.toMatchObject({ code: 'E_PROVIDER_CLEANUP_NOT_OURS' });
  });
});

describe("a cleanup DELETE checks the upload's full identity, not the last URL segment", () => {
  const at = (url: string) => ({
    version: 1,
    operation: { method: 'DELETE', url, headers: {}, auth: KEY, cleanup: true },
    state: 'rm',
  });
  async function uploaded(uploadUrl = `${BASE}/files`) {
    const t = context(true);
    await withOperationPlans(
      worker([{ ...upload, operation: { ...upload.operation, url: uploadUrl } }, prepared]),
      t.plans,
    ).prepare(input);
    return t;
  }

  it('records where the upload lives', async () => {
    const t = await uploaded(`${BASE}/v1/files?purpose=vision`);
    expect((await t.plans.registry.all()).map((r) => [r.file_id, r.location])).toEqual([
      ['up-1', `${BASE}/v1/files?purpose=vision`],
    ]);
  });

  it('refuses a known id under another resource path, deleting nothing and keeping the record', async () => {
    for (const url of [
      `${BASE}/projects/up-1`,
      `${BASE}/files/sub/up-1`,
      `${BASE}/up-1`,
      `${BASE}/files/x/../../projects/up-1`,
    ]) {
      const t = await uploaded();
      const error = await Promise.resolve(
        withOperationPlans(worker([at(url), prepared]), t.plans).prepare(input),
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'E_PROVIDER_CLEANUP_WRONG_TARGET',
        data: { file_id: 'up-1', expected: [`${BASE}/files/up-1`] },
      });
      expect((error as Error).message).toContain(`lives at ${BASE}/files/up-1`);
      expect(t.methods()).toEqual(['POST']);
      expect(await t.plans.registry.all()).toHaveLength(1);
    }
  });

  it('refuses a known id at another host or with another query, before anything is sent', async () => {
    for (const url of [
      'https://evil.example.test/files/up-1',
      'http://svc.example.test/files/up-1',
      `${BASE}/files/up-1?all=true`,
    ]) {
      const t = await uploaded();
      await expect(withOperationPlans(worker([at(url), prepared]), t.plans).prepare(input)).rejects.toMatchObject({
        code: 'E_PROVIDER_CLEANUP_WRONG_TARGET',
      });
      expect(t.methods()).toEqual(['POST']);
    }
  });

  it('refuses a record written before upload addresses were kept, saying why', async () => {
    const t = context(true);
    await t.plans.registry.put({
      scope: 'svc#K',
      hash: 'op:h',
      file_id: 'up-1',
      protocol: 'my-service',
      bytes: 1,
      media_type: 'x/y',
      created_at: 1,
      expires_at: null,
    });
    await expect(
      withOperationPlans(worker([at(`${BASE}/files/up-1`), prepared]), t.plans).prepare(input),
    ).rejects.toMatchObject({
      code: 'E_PROVIDER_CLEANUP_WRONG_TARGET',
      message: expect.stringContaining('does not record where'),
    });
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it("runs the delete of exactly the upload's address (its query kept) and forgets only that record", async () => {
    const t = await uploaded(`${BASE}/v1/files/?purpose=vision`);
    await t.plans.registry.put({
      scope: 'other#K',
      hash: 'h',
      file_id: 'up-1',
      protocol: 'my-service',
      bytes: 1,
      media_type: 'x/y',
      created_at: 1,
      expires_at: null,
    });
    await expect(
      withOperationPlans(worker([at(`${BASE}/v1/files/up-1?purpose=vision`), prepared]), t.plans).prepare(input),
    ).resolves.toMatchObject({ url: `${BASE}/ask` });
    expect(t.methods()).toEqual(['POST', 'DELETE']);
    expect((await t.plans.registry.all()).map((r) => r.scope)).toEqual(['other#K']);
  });
});

describe("Stop during a model call's operation", () => {
  it('ends the running upload: the call ends aborted and no model request is sent', async () => {
    const seen: string[] = [];
    let uploadSignal: AbortSignal | undefined;
    const fetch = vi.fn(async (u: string | URL | Request, i?: RequestInit) => {
      seen.push(String(u));
      if (String(u).endsWith('/files')) {
        uploadSignal = i?.signal ?? undefined;
        // Answers after 2 s unless the call's signal ends it first.
        await new Promise<void>((done, fail) => {
          const timer = setTimeout(done, 2000);
          i?.signal?.addEventListener(
            'abort',
            () => (clearTimeout(timer), fail(new DOMException('aborted', 'AbortError'))),
          );
        });
        return new Response(JSON.stringify({ id: 'up-1' }), { status: 200 });
      }
      return new Response(JSON.stringify({ text: 'answer' }), { status: 200 });
    });
    const t = context(false, fetch);
    const stream = providerFilesStream({
      apiKeyName: 'K',
      getSecret: () => 's',
      fetch: fetch as unknown as typeof globalThis.fetch,
      adapter: worker([upload, prepared]),
      files: null,
      plans: t.plans,
    });
    const stop = new AbortController();
    const call = { input, signal: stop.signal } as unknown as ModelCall;
    setTimeout(() => stop.abort(), 50);
    const events: StreamEvent[] = [];
    for await (const e of stream(call)) events.push(e);
    expect(uploadSignal?.aborted).toBe(true);
    expect(seen).toEqual([`${BASE}/files`]);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
  });
});
