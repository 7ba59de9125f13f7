// The management channel's list and reconcile against the scripted server's paged Files lists, in each vendor's
// documented shape (Anthropic limit + after_id, OpenAI limit + after; has_more, last_id): every page is read (up to
// MAX_LIST_PAGES), a list that did not reach its end forgets nothing, and only this account's and this vendor's
// registry records count as "known" (nor are others forgotten).
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { anthropicFiles, openaiFiles, type VendorFiles } from '../providers';
import { MAX_LIST_PAGES, parseManageAction, runManageAction } from './manage';
import { FileRegistry, memoryRegistryStore, type UploadRecord } from './registry';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const VENDORS: Array<[string, VendorFiles, 'responses' | 'anthropic']> = [
  ['OpenAI', openaiFiles, 'responses'],
  ['Anthropic', anthropicFiles, 'anthropic'],
];
const SCOPE = 'acct';
const rec = (file_id: string, scope: string, protocol: string): UploadRecord => ({
  scope,
  hash: `h-${file_id}-${scope}-${protocol}`,
  file_id,
  protocol,
  bytes: 1,
  media_type: 'image/png',
  created_at: 1,
  expires_at: null,
});

async function setUp(vendor: VendorFiles, protocol: 'responses' | 'anthropic', count: number, pageSize: number) {
  server = await startModelServer({ script: [], files: { maxPageSize: pageSize } });
  const base = server.baseUrl(protocol);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append('purpose', 'vision');
    form.append('file', new Blob([new Uint8Array([i])], { type: 'image/png' }), `f${i}.png`);
    const headers: Record<string, string> =
      protocol === 'anthropic' ? { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'files-api-2025-04-14' } : {};
    ids.push(
      (
        (await (
          await fetch(`${base}${protocol === 'anthropic' ? '/v1' : ''}/files`, { method: 'POST', body: form, headers })
        ).json()) as { id: string }
      ).id,
    );
  }
  const registry = new FileRegistry(
    memoryRegistryStore({
      version: 1,
      records: [
        ...ids.map((id) => rec(id, SCOPE, vendor.protocol)),
        rec('gone-other-account', 'other', vendor.protocol),
        rec('gone-other-vendor', SCOPE, 'custom'),
      ],
    }),
  );
  const deps = {
    vendor,
    registry,
    scope: SCOPE,
    confirm: null,
    cleanupAllowed: false,
    ports: { baseUrl: base, apiKeyName: null },
  };
  return { ids, registry, deps, server };
}

describe.each(VENDORS)('%s Files list pages', (_name, vendor, protocol) => {
  it("lists every page and reconciles against all of them, leaving other accounts' and vendors' records alone", async () => {
    const t = await setUp(vendor, protocol, 5, 2);
    const list = await runManageAction(parseManageAction('{"action":"list"}'), t.deps);
    expect(list).toMatchObject({ action: 'list', complete: true });
    expect(list.action === 'list' && list.files.map((f) => [f.file_id, f.known])).toEqual(
      t.ids.map((id) => [id, true]),
    );
    expect(t.server.files!.listPages).toBe(3);

    t.server.files!.expire(t.ids[4]!); // lost on the vendor's side (last page)
    const r = await runManageAction({ action: 'reconcile' }, t.deps);
    expect(r).toEqual({
      action: 'reconcile',
      remote: 4,
      complete: true,
      unknown_remote: [],
      forgotten_local: [t.ids[4]],
    });
    expect((await t.registry.all()).map((x) => x.file_id).sort()).toEqual(
      [...t.ids.slice(0, 4), 'gone-other-account', 'gone-other-vendor'].sort(),
    );
  });

  it(`stops after ${MAX_LIST_PAGES} pages, says the list is incomplete, and then forgets nothing`, async () => {
    const t = await setUp(vendor, protocol, MAX_LIST_PAGES + 2, 1);
    t.server.files!.expire(t.ids[0]!);
    const r = await runManageAction({ action: 'reconcile' }, t.deps);
    expect(r).toMatchObject({ action: 'reconcile', remote: MAX_LIST_PAGES, complete: false, forgotten_local: [] });
    expect(await t.registry.all()).toHaveLength(MAX_LIST_PAGES + 4);
    const list = await runManageAction({ action: 'list' }, t.deps);
    expect(list).toMatchObject({ action: 'list', complete: false });
  });
});

describe('a vendor that answers the same page again', () => {
  it("lists each file once, ends the list as incomplete and forgets nothing (the reviewer's 25 + 1 records)", async () => {
    const records = [
      ...Array.from({ length: 25 }, (_, i) => rec(`file_a${i}`, SCOPE, 'anthropic')),
      rec('file-openai1', 'other', 'responses'),
    ];
    const registry = new FileRegistry(memoryRegistryStore({ version: 1, records }));
    const page = {
      data: records.slice(0, 20).map((r) => ({ id: r.file_id, size_bytes: 1, created_at: '2026-01-01T00:00:00Z' })),
      has_more: true,
      first_id: 'file_a0',
      last_id: 'file_a19',
    };
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (url) => (
      urls.push(String(url)),
      new Response(JSON.stringify(page), { status: 200 })
    );
    const r = await runManageAction(
      { action: 'reconcile' },
      {
        vendor: anthropicFiles,
        registry,
        scope: SCOPE,
        confirm: null,
        cleanupAllowed: false,
        ports: { baseUrl: 'https://api.anthropic.com', apiKeyName: 'K', getSecret: () => 'k', fetch },
      },
    );
    expect(r).toMatchObject({ remote: 20, complete: false, forgotten_local: [] });
    expect(urls).toEqual([
      'https://api.anthropic.com/v1/files?limit=1000',
      'https://api.anthropic.com/v1/files?limit=1000&after_id=file_a19',
    ]);
    expect(await registry.all()).toHaveLength(26);
  });
});

describe('file ids the management channel accepts', () => {
  it('refuses "." and ".." (they would name another path), and accepts ids with dots inside', () => {
    for (const id of ['.', '..', '...'])
      expect(() => parseManageAction(JSON.stringify({ action: 'get', file_id: id }))).toThrow(
        expect.objectContaining({ code: 'E_USAGE' }) as Error,
      );
    expect(parseManageAction('{"action":"delete","file_id":"file-a.b"}')).toEqual({
      action: 'delete',
      file_id: 'file-a.b',
    });
  });
});
