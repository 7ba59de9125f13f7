// The model store on the real OPFS: copy in (checked first), list with size and SHA-256, delete with the space
// freed; a URL download cut in the middle resumes with a Range request conditional on the file being unchanged
// (If-Range); the quota is checked before writing.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import {
  deleteStoredModel,
  downloadModel,
  importModelFile,
  listStoredModels,
  openStoredModel,
  partialDownloads,
  type StorePorts,
} from './model-store';

const bytes = makeTinyGguf();
const hex = async (b: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { code?: string }) => e.code,
  );

interface ServerOptions {
  /** The first answer's body errors after this many bytes. */
  cutAt?: number;
  /** Bytes per chunk of a body (default: all at once). */
  chunk?: number;
  /** Answers a Range request with a 206 from byte 0 (a server or cache that got the range wrong). */
  wrongStart?: boolean;
  /** Leaves Content-Range out, as a cross-origin answer shows it when the server does not expose it. */
  hideRange?: boolean;
  /** The versions of the file, one per answer (the last repeats); default: `bytes`, always. */
  versions?: Uint8Array<ArrayBuffer>[];
  /** Validators per version: `null` sends none (default: a strong ETag "v<n>"). */
  validators?: ({ etag?: string; lastModified?: string } | null)[];
  /** Serves Range as if If-Range were not there (a server or cache that does not implement it). */
  ignoreIfRange?: boolean;
  /** Fails a request carrying If-Range before it is sent, as a CORS preflight that does not allow the header. */
  refuseIfRange?: boolean;
}

/**
 * A server for one file that honours Range (416 past the end) and If-Range (a validator that is not the current
 * one gets the whole file, 200), and can cut its first answer after `cutAt` bytes.
 */
function server(o: ServerOptions = {}) {
  const ranges: (string | null)[] = [];
  const ifRanges: (string | null)[] = [];
  let cut = o.cutAt;
  let answers = 0;
  const fetch = (async (_url: string, init?: RequestInit) => {
    const sent = new Headers(init?.headers);
    const range = sent.get('range');
    const ifRange = sent.get('if-range');
    ranges.push(range);
    ifRanges.push(ifRange);
    if (ifRange && o.refuseIfRange) throw new TypeError('Failed to fetch');
    const n = Math.min(answers++, (o.versions?.length ?? 1) - 1);
    const file = o.versions?.[n] ?? bytes;
    const v = o.validators
      ? (o.validators[Math.min(n, o.validators.length - 1)] ?? {})
      : { etag: `"v${o.versions ? n : 0}"` };
    const validators: Record<string, string> = {
      ...(v.etag ? { etag: v.etag } : {}),
      ...(v.lastModified ? { 'last-modified': v.lastModified } : {}),
    };
    const current = !ifRange || o.ignoreIfRange || ifRange === v.etag || ifRange === v.lastModified;
    const ranged = range !== null && current;
    const from = ranged && !o.wrongStart ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    if (from >= file.length)
      return new Response(null, {
        status: 416,
        headers: { ...validators, ...(o.hideRange ? {} : { 'content-range': `bytes */${file.length}` }) },
      });
    const body = file.slice(from);
    const stopAt = cut;
    cut = undefined;
    const send = stopAt ?? body.length;
    let at = 0;
    // The cut comes on the read after the last chunk sent (erroring at once would discard a queued chunk).
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= send) return stopAt !== undefined ? c.error(new TypeError('network connection lost')) : c.close();
        const end = Math.min(send, at + (o.chunk ?? send));
        c.enqueue(body.slice(at, end));
        at = end;
      },
    });
    const headers: Record<string, string> = { 'content-length': String(body.length), ...validators };
    if (ranged && !o.hideRange) headers['content-range'] = `bytes ${from}-${file.length - 1}/${file.length}`;
    return new Response(stream, { status: ranged ? 206 : 200, headers });
  }) as typeof globalThis.fetch;
  return { fetch, ranges, ifRanges };
}

/**
 * The real OPFS, except that writes to files ending in `suffix` fail with QuotaExceededError past `limit` bytes, and
 * their handles lack the methods in `hide` (`move` is Chromium's; other browsers copy).
 */
async function quotaAfter(limit: number, suffix: string, hide: string[] = []): Promise<StorePorts> {
  const real = await (await navigator.storage.getDirectory()).getDirectoryHandle('models', { create: true });
  const bound = <T extends object>(t: T, k: string | symbol) => {
    const v = Reflect.get(t, k) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
  };
  const limited = (h: FileSystemFileHandle) =>
    new Proxy(h, {
      get(t, k) {
        if (typeof k === 'string' && hide.includes(k)) return undefined;
        if (k !== 'createWritable') return bound(t, k);
        return async (wo?: FileSystemCreateWritableOptions) => {
          const w = await t.createWritable(wo);
          let written = 0;
          return {
            write: async (c: ArrayBuffer | Uint8Array<ArrayBuffer>) => {
              if (written + c.byteLength > limit)
                throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
              written += c.byteLength;
              await w.write(c);
            },
            seek: (n: number) => w.seek(n),
            truncate: (n: number) => w.truncate(n),
            close: () => w.close(),
            abort: () => w.abort(),
          };
        };
      },
    });
  const models = new Proxy(real, {
    get(t, k) {
      if (k !== 'getFileHandle') return bound(t, k);
      return async (n: string, o?: FileSystemGetFileOptions) =>
        n.endsWith(suffix) ? limited(await t.getFileHandle(n, o)) : t.getFileHandle(n, o);
    },
  });
  return { root: async () => ({ getDirectoryHandle: async () => models }) as unknown as FileSystemDirectoryHandle };
}

const stored = async (name: string) => new Uint8Array(await (await openStoredModel(name)).arrayBuffer());

describe('the model store (OPFS)', () => {
  afterEach(async () => {
    for (const m of await listStoredModels()) await deleteStoredModel(m.name);
    await deleteStoredModel('tiny.gguf');
  });

  it('copies a picked GGUF in, lists it with its size and SHA-256, and deleting it reports the space freed', async () => {
    const stored = await importModelFile(new File([bytes], 'tiny.gguf'));
    expect(stored).toMatchObject({ name: 'tiny.gguf', size: bytes.length, sha256: await hex(bytes), source: 'file' });
    expect((await listStoredModels()).map((m) => [m.name, m.size, m.sha256])).toEqual([
      ['tiny.gguf', bytes.length, await hex(bytes)],
    ]);
    expect((await openStoredModel('tiny.gguf')).size).toBe(bytes.length);
    expect(await deleteStoredModel('tiny.gguf')).toBe(bytes.length);
    expect(await listStoredModels()).toEqual([]);
  });

  it('refuses to copy a file that is not a GGUF, and one larger than the free quota, storing nothing', async () => {
    expect(await codeOf(importModelFile(new File(['hello'], 'notes.gguf')))).toBe('E_GGUF_NOT_GGUF');
    expect(
      await codeOf(
        importModelFile(new File([bytes], 'tiny.gguf'), undefined, {
          estimate: async () => ({ quota: 1000, usage: 900 }),
        }),
      ),
    ).toBe('E_BROWSER_MODEL_QUOTA');
    expect(await listStoredModels()).toEqual([]);
  });

  it('resumes an interrupted download from where it stopped, then stores the whole file', async () => {
    const s = server({ cutAt: 3000 });
    const url = 'https://models.example/tiny.gguf';
    expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
    expect(await partialDownloads()).toEqual([{ name: 'tiny.gguf', url, have: 3000, total: bytes.length }]);
    const done = await downloadModel(url, {}, { fetch: s.fetch });
    expect(s.ranges).toEqual([null, 'bytes=3000-']);
    expect(s.ifRanges).toEqual([null, '"v0"']);
    expect(done).toMatchObject({ name: 'tiny.gguf', size: bytes.length, sha256: await hex(bytes), source: url });
    expect(await partialDownloads()).toEqual([]);
    expect(await stored('tiny.gguf')).toEqual(bytes);
  });

  it.each([
    ['with Content-Range', false],
    ['without a readable Content-Range (cross-origin)', true],
  ])(
    "stores a download whose every byte arrived before it was stopped: the retry's 416 finishes it (%s)",
    async (_, hideRange) => {
      const s = server({ cutAt: bytes.length, hideRange });
      const url = 'https://models.example/tiny.gguf';
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      expect(await partialDownloads()).toEqual([{ name: 'tiny.gguf', url, have: bytes.length, total: bytes.length }]);
      const done = await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ranges).toEqual([null, `bytes=${bytes.length}-`]);
      expect(done).toMatchObject({ name: 'tiny.gguf', size: bytes.length, sha256: await hex(bytes) });
      expect(await partialDownloads()).toEqual([]);
      expect(await stored('tiny.gguf')).toEqual(bytes);
    },
  );

  it.each([
    ['a 206 that starts elsewhere', { wrongStart: true }],
    ['a 206 whose length does not add up, without Content-Range', { wrongStart: true, hideRange: true }],
  ])(
    'starts over from byte 0 when the resumed answer is %s, instead of splicing bytes in the wrong place',
    async (_, o) => {
      const s = server({ cutAt: 3000, ...o });
      const url = 'https://models.example/tiny.gguf';
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      // The second answer (206 from 0) is refused as a resume, the third is a plain GET that the server answers 200.
      const plain = server();
      let calls = 0;
      const fetch = ((url: string, init?: RequestInit) =>
        calls++ === 0 ? s.fetch(url, init) : plain.fetch(url, init)) as typeof globalThis.fetch;
      const done = await downloadModel(url, {}, { fetch });
      expect([...s.ranges, ...plain.ranges]).toEqual([null, 'bytes=3000-', null]);
      expect(done).toMatchObject({ size: bytes.length, sha256: await hex(bytes) });
      expect(await stored('tiny.gguf')).toEqual(bytes);
    },
  );

  it('refuses a download larger than the free quota before writing, leaving no partial file', async () => {
    const s = server();
    expect(
      await codeOf(
        downloadModel(
          'https://models.example/tiny.gguf',
          {},
          { fetch: s.fetch, estimate: async () => ({ quota: 1000, usage: 900 }) },
        ),
      ),
    ).toBe('E_BROWSER_MODEL_QUOTA');
    expect(await partialDownloads()).toEqual([]);
    const models = await (await navigator.storage.getDirectory()).getDirectoryHandle('models');
    expect(
      await models.getFileHandle('tiny.gguf.part').then(
        () => 'left behind',
        (e: DOMException) => e.name,
      ),
    ).toBe('NotFoundError');
  });

  it('stops with E_BROWSER_MODEL_QUOTA when the storage fills during a download, keeping what arrived for a resume', async () => {
    const s = server({ chunk: 1000 });
    const url = 'https://models.example/tiny.gguf';
    expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch, ...(await quotaAfter(3000, '.gguf.part')) }))).toBe(
      'E_BROWSER_MODEL_QUOTA',
    );
    expect(await partialDownloads()).toEqual([{ name: 'tiny.gguf', url, have: 3000, total: bytes.length }]);
    await downloadModel(url, {}, { fetch: s.fetch });
    expect(s.ranges).toEqual([null, 'bytes=3000-']);
    expect(await stored('tiny.gguf')).toEqual(bytes);
  });

  it('keeps the stored model when a re-import of the same name fails, and replaces it when one succeeds', async () => {
    await importModelFile(new File([bytes], 'tiny.gguf'));
    expect(
      await codeOf(importModelFile(new File([bytes], 'tiny.gguf'), undefined, await quotaAfter(1000, '.gguf.import'))),
    ).toBe('E_BROWSER_MODEL_QUOTA');
    expect((await listStoredModels()).map((m) => [m.name, m.sha256])).toEqual([['tiny.gguf', await hex(bytes)]]);
    expect(await stored('tiny.gguf')).toEqual(bytes);
    const other = makeTinyGguf({ seed: 22 });
    expect(other).not.toEqual(bytes);
    await importModelFile(new File([other], 'tiny.gguf'));
    expect((await listStoredModels()).map((m) => [m.name, m.sha256])).toEqual([['tiny.gguf', await hex(other)]]);
    expect(await stored('tiny.gguf')).toEqual(other);
    // A browser without FileSystemHandle.move copies the finished file over the stored one.
    await importModelFile(
      new File([bytes], 'tiny.gguf'),
      undefined,
      await quotaAfter(Infinity, '.gguf.import', ['move']),
    );
    expect((await listStoredModels()).map((m) => [m.name, m.size, m.sha256])).toEqual([
      ['tiny.gguf', bytes.length, await hex(bytes)],
    ]);
    expect(await stored('tiny.gguf')).toEqual(bytes);
  });

  it('refuses plain http addresses other than localhost', async () => {
    expect(await codeOf(downloadModel('http://models.example/tiny.gguf'))).toBe('E_BROWSER_MODEL_URL');
  });

  describe('a resume is conditional on the file being the one the part came from', () => {
    const other = makeTinyGguf({ seed: 22 });
    const url = 'https://models.example/tiny.gguf';

    it('restarts from byte 0 when the file changed between attempts (If-Range answered with the whole new file)', async () => {
      expect(other.length).toBe(bytes.length); // same size: only the validator tells the versions apart
      const s = server({ cutAt: 3000, versions: [bytes, other] });
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      const done = await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ranges).toEqual([null, 'bytes=3000-']);
      expect(s.ifRanges).toEqual([null, '"v0"']);
      expect(done).toMatchObject({ size: other.length, sha256: await hex(other) });
      expect(await stored('tiny.gguf')).toEqual(other);
    });

    it('starts over when a server that ignores If-Range answers 206 with another ETag', async () => {
      const s = server({ cutAt: 3000, versions: [bytes, other], ignoreIfRange: true });
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      const done = await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ranges).toEqual([null, 'bytes=3000-', null]);
      expect(done).toMatchObject({ sha256: await hex(other) });
      expect(await stored('tiny.gguf')).toEqual(other);
    });

    it('uses Last-Modified when the ETag is weak, and restarts when it changed', async () => {
      const s = server({
        cutAt: 3000,
        versions: [bytes, other],
        validators: [
          { etag: 'W/"a"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' },
          { etag: 'W/"b"', lastModified: 'Wed, 02 Dec 2026 10:00:00 GMT' },
        ],
      });
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ifRanges).toEqual([null, 'Tue, 01 Dec 2026 10:00:00 GMT']);
      expect(await stored('tiny.gguf')).toEqual(other);
    });

    it('resumes with Last-Modified when it still matches', async () => {
      const s = server({ cutAt: 3000, validators: [{ lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' }] });
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ranges).toEqual([null, 'bytes=3000-']);
      expect(s.ifRanges).toEqual([null, 'Tue, 01 Dec 2026 10:00:00 GMT']);
      expect(await stored('tiny.gguf')).toEqual(bytes);
    });

    it('does not resume a part whose first answer had no validator: it downloads again from byte 0', async () => {
      const s = server({ cutAt: 3000, versions: [bytes, other], validators: [null] });
      expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      const done = await downloadModel(url, {}, { fetch: s.fetch });
      expect(s.ranges).toEqual([null, null]);
      expect(done).toMatchObject({ sha256: await hex(other) });
      expect(await stored('tiny.gguf')).toEqual(other);
    });

    it('asks again with Range alone when If-Range is refused before sending (CORS preflight), continuing only on a matching ETag', async () => {
      const same = server({ cutAt: 3000, refuseIfRange: true });
      expect(await codeOf(downloadModel(url, {}, { fetch: same.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
      await downloadModel(url, {}, { fetch: same.fetch });
      expect(same.ranges).toEqual([null, 'bytes=3000-', 'bytes=3000-']);
      expect(same.ifRanges).toEqual([null, '"v0"', null]);
      expect(await stored('tiny.gguf')).toEqual(bytes);
      await deleteStoredModel('tiny.gguf');

      const changed = server({ cutAt: 3000, versions: [bytes, other], refuseIfRange: true });
      expect(await codeOf(downloadModel(url, {}, { fetch: changed.fetch }))).toBe(
        'E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED',
      );
      await downloadModel(url, {}, { fetch: changed.fetch });
      expect(changed.ranges).toEqual([null, 'bytes=3000-', 'bytes=3000-', null]);
      expect(await stored('tiny.gguf')).toEqual(other);
    });
  });

  it('refuses an address whose file name has a broken %-escape with E_BROWSER_MODEL_URL, not a raw URIError', async () => {
    const s = server();
    const error = await downloadModel('https://h/x/%E0%A4%A.gguf', {}, { fetch: s.fetch }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_BROWSER_MODEL_URL', message: expect.stringContaining('%E0%A4%A.gguf') });
    expect(s.ranges).toEqual([]);
  });
});
