// The model store on the real OPFS: copy in (checked first), list with size and SHA-256, delete with the space
// freed; a URL download cut in the middle resumes with a Range request; the quota is checked before writing.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../../../scripts/make-tiny-gguf.mjs';
import { deleteStoredModel, downloadModel, importModelFile, listStoredModels, openStoredModel, partialDownloads } from './model-store';

const bytes = makeTinyGguf();
const hex = async (b: Uint8Array<ArrayBuffer>) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');
const codeOf = (p: Promise<unknown>) => p.then(() => 'accepted', (e: { code?: string }) => e.code);

/** A server for one file that honours Range and can cut its first answer after `cutAt` bytes. */
function server(cutAt?: number) {
  const ranges: (string | null)[] = [];
  let cut = cutAt;
  const fetch = (async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('range');
    ranges.push(range);
    const from = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    const body = bytes.slice(from);
    const stopAt = cut;
    cut = undefined;
    let sent = false;
    // The cut comes on the read after the first chunk (erroring at once would discard the queued chunk).
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent) return c.error(new TypeError('network connection lost'));
        sent = true;
        c.enqueue(stopAt !== undefined ? body.slice(0, stopAt) : body);
        if (stopAt === undefined) c.close();
      },
    });
    return new Response(stream, { status: range ? 206 : 200, headers: { 'content-length': String(body.length) } });
  }) as typeof globalThis.fetch;
  return { fetch, ranges };
}

describe('the model store (OPFS)', () => {
  afterEach(async () => {
    for (const m of await listStoredModels()) await deleteStoredModel(m.name);
    await deleteStoredModel('tiny.gguf');
  });

  it('copies a picked GGUF in, lists it with its size and SHA-256, and deleting it reports the space freed', async () => {
    const stored = await importModelFile(new File([bytes], 'tiny.gguf'));
    expect(stored).toMatchObject({ name: 'tiny.gguf', size: bytes.length, sha256: await hex(bytes), source: 'file' });
    expect((await listStoredModels()).map((m) => [m.name, m.size, m.sha256])).toEqual([['tiny.gguf', bytes.length, await hex(bytes)]]);
    expect((await openStoredModel('tiny.gguf')).size).toBe(bytes.length);
    expect(await deleteStoredModel('tiny.gguf')).toBe(bytes.length);
    expect(await listStoredModels()).toEqual([]);
  });

  it('refuses to copy a file that is not a GGUF, and one larger than the free quota, storing nothing', async () => {
    expect(await codeOf(importModelFile(new File(['hello'], 'notes.gguf')))).toBe('E_GGUF_NOT_GGUF');
    expect(await codeOf(importModelFile(new File([bytes], 'tiny.gguf'), undefined, { estimate: async () => ({ quota: 1000, usage: 900 }) }))).toBe('E_BROWSER_MODEL_QUOTA');
    expect(await listStoredModels()).toEqual([]);
  });

  it('resumes an interrupted download from where it stopped, then stores the whole file', async () => {
    const s = server(3000);
    const url = 'https://models.example/tiny.gguf';
    expect(await codeOf(downloadModel(url, {}, { fetch: s.fetch }))).toBe('E_BROWSER_MODEL_DOWNLOAD_INTERRUPTED');
    expect(await partialDownloads()).toEqual([{ name: 'tiny.gguf', url, have: 3000, total: bytes.length }]);
    const done = await downloadModel(url, {}, { fetch: s.fetch });
    expect(s.ranges).toEqual([null, 'bytes=3000-']);
    expect(done).toMatchObject({ name: 'tiny.gguf', size: bytes.length, sha256: await hex(bytes), source: url });
    expect(await partialDownloads()).toEqual([]);
    expect(new Uint8Array(await (await openStoredModel('tiny.gguf')).arrayBuffer())).toEqual(bytes);
  });

  it('refuses plain http addresses other than localhost', async () => {
    expect(await codeOf(downloadModel('http://models.example/tiny.gguf'))).toBe('E_BROWSER_MODEL_URL');
  });
});
