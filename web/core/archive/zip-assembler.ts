// The zip.js half of "Download as .zip": entries in, archive bytes out. The same code runs in the zip Worker
// (zip-worker.ts, the browser) and in-thread (Node, and anywhere without a Worker), so both produce one archive.
import { Uint8ArrayReader, ZipWriter } from '@zip.js/zip.js';

/** zip.js writes headers, data and descriptors as separate small chunks; they leave in pieces of about this size. */
export const WRITE_CHUNK_BYTES = 1024 * 1024;

export interface ZipAssembler {
  /** Queues a file after those already queued; resolves once it is in the archive. */
  add(name: string, data: Uint8Array, level: number, signal?: AbortSignal): Promise<void>;
  /** Queues an (empty) folder entry; `name` ends with '/'. */
  folder(name: string): Promise<void>;
  /** Finishes the archive; resolves once its last byte was handed to `write`. */
  close(): Promise<void>;
}

/**
 * `write` receives the archive in order, in chunks of about WRITE_CHUNK_BYTES that are the caller's to keep (a
 * save-picker file pays a round trip to the browser process per write: gathering made 1,000 small files 8× faster).
 * Entries are added one after another: zip.js's concurrent adds need `bufferedWrite`, measured slower.
 */
export function openZipAssembler(write: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>): ZipAssembler {
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const joined = new Uint8Array(pendingBytes);
    let at = 0;
    for (const c of pending) {
      joined.set(c, at);
      at += c.byteLength;
    }
    pending.length = 0;
    pendingBytes = 0;
    await write(joined);
  };
  const gather = new WritableStream<Uint8Array>({
    async write(chunk) {
      // zip.js may reuse its buffers after the write resolves: keep a copy.
      pending.push(chunk.slice());
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= WRITE_CHUNK_BYTES) await flush();
    },
    close: flush,
  });
  const zip = new ZipWriter(gather, { useWebWorkers: false, keepOrder: true });
  let chain: Promise<unknown> = Promise.resolve();
  const queue = (step: () => Promise<unknown>): Promise<void> => {
    const done = chain.then(step);
    chain = done;
    return done.then(() => undefined);
  };
  return {
    add: (name, data, level, signal) =>
      queue(() =>
        zip.add(name, new Uint8ArrayReader(data as Uint8Array<ArrayBuffer>), { level, ...(signal ? { signal } : {}) }),
      ),
    folder: (name) => queue(() => zip.add(name, undefined, { directory: true })),
    close: () =>
      queue(async () => {
        await zip.close();
        await flush();
      }),
  };
}
