// provider.json is strict (unknown keys, wrong values and an expiry outside the vendors' 3600–2592000 s range are
// refused with their path); the policy needs both switches and says which one is missing; the registry reuses an
// upload only under the same scope and content and not within 5 minutes of its expiry, and stays bounded.
import { describe, expect, it } from 'vitest';
import { filesPolicy, parseProviderJson } from './provider-json';
import {
  EXPIRY_MARGIN_MS,
  FileRegistry,
  MAX_REGISTRY_RECORDS,
  memoryRegistryStore,
  type UploadRecord,
} from './registry';

const refusal = (v: unknown) => {
  try {
    parseProviderJson(v, 'provider.json');
    return null;
  } catch (e) {
    return (e as { data?: { path?: string } }).data?.path;
  }
};

describe('provider.json', () => {
  it('defaults to base64 and refuses unknown keys, other modes and expiries outside 3600-2592000 s', () => {
    expect(parseProviderJson({}, 'p')).toEqual({ images: 'base64', account_scope: null, expires_after_seconds: null });
    expect(parseProviderJson({ images: 'files', account_scope: 'acct-1', expires_after_seconds: 3600 }, 'p')).toEqual({
      images: 'files',
      account_scope: 'acct-1',
      expires_after_seconds: 3600,
    });
    expect(refusal({ image: 'files' })).toBe('image');
    expect(refusal({ images: 'url' })).toBe('images');
    expect(refusal({ expires_after_seconds: 3599 })).toBe('expires_after_seconds');
    expect(refusal({ expires_after_seconds: 2_592_001 })).toBe('expires_after_seconds');
    expect(refusal({ account_scope: 'a b' })).toBe('account_scope');
  });

  it('uploads only with both switches; each alone is a notice naming the other', () => {
    const base = { protocol: 'responses', baseUrl: 'https://api.example.test/v1', apiKeyName: 'K' };
    const files = { images: 'files' as const, account_scope: null, expires_after_seconds: null };
    expect(filesPolicy({ ...base, provider: files, providerOperations: true })).toMatchObject({
      mode: 'files',
      notice: null,
      scope: 'https://api.example.test#K',
    });
    expect(filesPolicy({ ...base, provider: files, providerOperations: false })).toMatchObject({
      mode: 'base64',
      notice: { code: 'N_PROVIDER_FILES_NOT_AUTHORISED' },
    });
    expect(filesPolicy({ ...base, provider: { ...files, images: 'base64' }, providerOperations: true })).toMatchObject({
      mode: 'base64',
      notice: { code: 'N_PROVIDER_OPERATIONS_UNUSED' },
    });
    expect(filesPolicy({ ...base, protocol: 'deepseek', provider: files, providerOperations: true })).toMatchObject({
      mode: 'base64',
      notice: { code: 'N_PROVIDER_FILES_UNSUPPORTED' },
    });
    expect(filesPolicy({ ...base, provider: files, providerOperations: true, route: 'bridge' })).toMatchObject({
      mode: 'base64',
      notice: { code: 'N_PROVIDER_FILES_UNSUPPORTED' },
    });
  });
});

const rec = (over: Partial<UploadRecord>): UploadRecord => ({
  scope: 's',
  hash: 'h',
  file_id: 'f',
  protocol: 'responses',
  bytes: 1,
  media_type: 'image/png',
  created_at: 0,
  expires_at: null,
  ...over,
});

describe('upload registry', () => {
  it('reuses an upload only under the same scope and hash, and not within the expiry margin', async () => {
    const r = new FileRegistry(memoryRegistryStore());
    await r.put(rec({ expires_at: 1_000_000 }));
    expect(await r.find('s', 'h', 0)).toMatchObject({ file_id: 'f' });
    expect(await r.find('other', 'h', 0)).toBeNull();
    expect(await r.find('s', 'other', 0)).toBeNull();
    expect(await r.find('s', 'h', 1_000_000 - EXPIRY_MARGIN_MS - 1)).not.toBeNull();
    expect(await r.find('s', 'h', 1_000_000 - EXPIRY_MARGIN_MS)).toBeNull();
  });

  it('keeps at most 10 000 records, dropping the oldest, and refuses a registry of another version', async () => {
    const store = memoryRegistryStore({
      version: 1,
      records: Array.from({ length: MAX_REGISTRY_RECORDS }, (_, i) => rec({ hash: `h${i}`, file_id: `f${i}` })),
    });
    const r = new FileRegistry(store);
    await r.put(rec({ hash: 'new', file_id: 'fnew' }));
    expect(store.value!.records).toHaveLength(MAX_REGISTRY_RECORDS);
    expect(await r.find('s', 'h0', 0)).toBeNull();
    expect(await r.find('s', 'new', 0)).not.toBeNull();
    const bad = new FileRegistry(memoryRegistryStore({ version: 2 as 1, records: [] }));
    await expect(bad.find('s', 'h', 0)).rejects.toMatchObject({ code: 'E_PROVIDER_FILES_REGISTRY' });
  });

  it('reads version-1 records written before upload addresses were kept, and drops one whose address is not a string', async () => {
    const frozen = {
      version: 1 as const,
      records: [
        {
          scope: 's',
          hash: 'h',
          file_id: 'f',
          protocol: 'p',
          bytes: 1,
          media_type: 'image/png',
          created_at: 1,
          expires_at: null,
        },
      ],
    };
    const r = new FileRegistry(
      memoryRegistryStore({
        version: 1,
        records: [
          ...frozen.records,
          { ...rec({ hash: 'h2', file_id: 'f2' }), location: 42 as unknown as string },
          rec({ hash: 'h3', file_id: 'f3', location: 'https://x.test/files' }),
        ],
      }),
    );
    expect((await r.all()).map((x) => [x.file_id, x.location])).toEqual([
      ['f', undefined],
      ['f3', 'https://x.test/files'],
    ]);
  });

  it('forgets a file id only under the given scope and protocol when asked to', async () => {
    const r = new FileRegistry(memoryRegistryStore());
    await r.put(rec({ scope: 'a', hash: 'h1' }));
    await r.put(rec({ scope: 'b', hash: 'h2' }));
    expect(await r.forget(['f'], { scope: 'a', protocol: rec({}).protocol })).toBe(1);
    expect((await r.all()).map((x) => x.scope)).toEqual(['b']);
  });
});
