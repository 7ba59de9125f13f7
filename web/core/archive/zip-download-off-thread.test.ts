// "Download as .zip" with zip.js in its Worker (here the real Worker code over a MessageChannel): the same archive
// as on the page's thread, progress, cancel and failures that terminate the Worker, backpressure from a slow sink,
// and one Worker kept for the next download only after a clean one.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkspaceFs } from '../contracts/fs';
import { createNodeWorkspaceFs } from '../node';
import { collectingSink } from './archive-test-kit';
import { READ_AHEAD_BYTES, READ_AHEAD_FILES, writeWorkspaceZip } from './download-zip';
import { importZip, type ZipProgress } from './import-zip';
import type { ZipWorker } from './zip-off-thread';
import { CHUNKS_IN_FLIGHT, type ZipReply, type ZipRequest } from './zip-worker-protocol';
import { serveZipWorker } from './zip-worker-serve';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function folder(files: Record<string, string | Uint8Array>) {
  const root = await mkdtemp(join(tmpdir(), 'i-zipw-'));
  roots.push(root);
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), data);
  }
  return { root, fs: await createNodeWorkspaceFs({ root, access: 'read-write' }) };
}

async function snapshot(root: string): Promise<[string, string | null][]> {
  const out: [string, string | null][] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    out.push([relative(root, full), entry.isDirectory() ? null : (await readFile(full)).toString('base64')]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The real Worker side (serveZipWorker) behind a MessageChannel, with what the tests watch. */
function channelWorkers() {
  const made: { terminated: boolean; chunksSent: number }[] = [];
  const spawn = (): ZipWorker => {
    const { port1, port2 } = new MessageChannel();
    const state = { terminated: false, chunksSent: 0 };
    made.push(state);
    const inside = {
      postMessage: (message: ZipReply, transfer: Transferable[]) => {
        if (message.type === 'chunk') state.chunksSent++;
        port2.postMessage(message, transfer as never);
      },
      addEventListener: (type: 'message', listener: (e: MessageEvent<ZipRequest>) => void) =>
        port2.addEventListener(type, listener as never),
    };
    serveZipWorker(inside);
    port1.start();
    port2.start();
    return {
      postMessage: (message, transfer) => port1.postMessage(message, transfer as never),
      addEventListener: (type, listener) => port1.addEventListener(type, listener as never),
      removeEventListener: (type, listener) => port1.removeEventListener(type, listener as never),
      terminate: () => {
        state.terminated = true;
        port1.close();
        port2.close();
      },
    };
  };
  return { spawn, made };
}

const binary = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251);
const tree = {
  'README.md': '# Project\n',
  'src/main.ts': 'export const x = 1;\n'.repeat(200),
  'src/deep/caf\u00e9.txt': 'unicode',
  'assets/logo.png': binary,
  'empty.txt': '',
};

describe('download as .zip through the zip Worker', () => {
  it('makes an archive that imports back to the same files as one zipped on the page’s thread', async () => {
    const source = await folder(tree);
    const workers = channelWorkers();
    const viaWorker = collectingSink();
    await writeWorkspaceZip(source.fs, viaWorker.stream, { spawnWorker: workers.spawn });
    const copy = await folder({});
    await importZip(viaWorker.blob(), copy.fs);
    const inThread = collectingSink();
    await writeWorkspaceZip(source.fs, inThread.stream, { spawnWorker: null });
    const other = await folder({});
    await importZip(inThread.blob(), other.fs);
    expect(await snapshot(copy.root)).toEqual(await snapshot(source.root));
    expect(await snapshot(other.root)).toEqual(await snapshot(copy.root));
    expect(workers.made).toHaveLength(1);
  });

  it('reports progress file by file as the Worker adds them, ending at the totals', async () => {
    const source = await folder({ 'a.txt': 'aaaa', 'b/c.txt': 'cc', 'd.bin': new Uint8Array(1000) });
    const seen: ZipProgress[] = [];
    await writeWorkspaceZip(source.fs, collectingSink().stream, {
      spawnWorker: channelWorkers().spawn,
      onProgress: (p) => seen.push(p),
    });
    expect(seen.map((p) => p.filesDone)).toEqual([0, 1, 2, 3]);
    expect(seen.at(-1)).toEqual({ filesDone: 3, filesTotal: 3, bytesDone: 1006, bytesTotal: 1006 });
  });

  it('on cancel terminates the Worker and aborts the sink with E_ABORTED; the next download starts a new Worker', async () => {
    const source = await folder(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.txt`, `file ${i}`])));
    const workers = channelWorkers();
    const controller = new AbortController();
    let abortedWith: unknown;
    const sink = new WritableStream<Uint8Array>({ abort: (reason) => void (abortedWith = reason) });
    const run = writeWorkspaceZip(source.fs, sink, {
      spawnWorker: workers.spawn,
      signal: controller.signal,
      onProgress: (p) => p.filesDone === 5 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(abortedWith).toBeDefined();
    expect(workers.made[0]?.terminated).toBe(true);
    await writeWorkspaceZip(source.fs, collectingSink().stream, { spawnWorker: workers.spawn });
    expect(workers.made).toHaveLength(2);
  });

  it('keeps the Worker after a clean download and zips the next archive in it', async () => {
    const source = await folder(tree);
    const workers = channelWorkers();
    const first = collectingSink();
    const second = collectingSink();
    await writeWorkspaceZip(source.fs, first.stream, { spawnWorker: workers.spawn });
    await writeWorkspaceZip(source.fs, second.stream, { spawnWorker: workers.spawn, folder: 'src' });
    expect(workers.made).toHaveLength(1);
    expect(workers.made[0]?.terminated).toBe(false);
    const copy = await folder({});
    await importZip(second.blob(), copy.fs);
    expect((await snapshot(copy.root)).map(([p]) => p)).toEqual(['deep', 'deep/caf\u00e9.txt', 'main.ts']);
    // Cancel the idle timer's Worker so the test leaves nothing running.
    await writeWorkspaceZip(source.fs, new WritableStream({ write: () => Promise.reject(new Error('disk full')) }), {
      spawnWorker: workers.spawn,
    }).catch(() => undefined);
    expect(workers.made[0]?.terminated).toBe(true);
  });

  it('lets the Worker run at most CHUNKS_IN_FLIGHT archive chunks ahead of a slow sink', async () => {
    // Stored (.png) and incompressible, so ~5 MiB of archive leave in ~1 MiB chunks.
    const noise = Uint8Array.from({ length: 5 * 1024 * 1024 }, (_, i) => (i * 2654435761) >>> 24);
    const source = await folder({ 'big.png': noise });
    const workers = channelWorkers();
    const aheadAtWrite: number[] = [];
    let written = 0;
    const sink = new WritableStream<Uint8Array>({
      async write() {
        await new Promise((resolve) => setTimeout(resolve, 20));
        aheadAtWrite.push((workers.made[0]?.chunksSent ?? 0) - written);
        written++;
      },
    });
    await writeWorkspaceZip(source.fs, sink, { spawnWorker: workers.spawn });
    expect(aheadAtWrite.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...aheadAtWrite)).toBeLessThanOrEqual(CHUNKS_IN_FLIGHT);
  });

  it('turns a zip.js failure in the Worker into E_ZIP_WRITE and a crash into E_ZIP_WORKER, aborting the sink', async () => {
    const replies: ZipReply[] = [];
    const { port1, port2 } = new MessageChannel();
    serveZipWorker({
      postMessage: (m) => port2.postMessage(m),
      addEventListener: (t, l) => port2.addEventListener(t, l as never),
    });
    port1.addEventListener('message', (e) => replies.push((e as MessageEvent<ZipReply>).data));
    port1.start();
    port2.start();
    // zip.js refuses a name longer than a ZIP header can hold.
    port1.postMessage({
      type: 'file',
      id: 0,
      name: 'x'.repeat(70_000),
      level: 6,
      bytes: new Uint8Array(3),
    } satisfies ZipRequest);
    await expect.poll(() => replies.length).toBe(1);
    expect(replies[0]).toMatchObject({ type: 'failed', error: { code: 'E_ZIP_WRITE' } });
    port1.close();

    const source = await folder({ 'a.txt': 'a' });
    let abortedWith: unknown;
    const crashing = (): ZipWorker => {
      const listeners: ((e: MessageEvent<ZipReply>) => void)[] = [];
      return {
        postMessage: () =>
          setTimeout(() => listeners.forEach((l) => l({ message: 'boom' } as unknown as MessageEvent<ZipReply>))),
        addEventListener: (type, listener) => void (type === 'error' && listeners.push(listener)),
        removeEventListener: () => undefined,
        terminate: () => undefined,
      };
    };
    const run = writeWorkspaceZip(source.fs, new WritableStream({ abort: (r) => void (abortedWith = r) }), {
      spawnWorker: crashing,
    });
    await expect(run).rejects.toMatchObject({ code: 'E_ZIP_WORKER' });
    expect(abortedWith).toBeDefined();
  });

  it('reads ahead while the Worker zips, never more than READ_AHEAD_FILES files or READ_AHEAD_BYTES not yet in the archive', async () => {
    /** The most files read (or being read) and not yet in the archive at any read's start. */
    const mostAhead = async (files: Record<string, string | Uint8Array>) => {
      const source = await folder(files);
      let started = 0;
      let added = 0;
      let most = 0;
      // Slow reads, so the window fills; a file leaves it when the Worker has added it (progress).
      const slow = Object.create(source.fs) as WorkspaceFs;
      slow.readBytes = async (path, options) => {
        started++;
        most = Math.max(most, started - added);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return source.fs.readBytes(path, options);
      };
      await writeWorkspaceZip(slow, collectingSink().stream, {
        spawnWorker: channelWorkers().spawn,
        onProgress: (p) => void (added = p.filesDone),
      });
      return most;
    };
    const small = await mostAhead(
      Object.fromEntries(Array.from({ length: READ_AHEAD_FILES * 2 }, (_, i) => [`f${i}.txt`, `file ${i}`])),
    );
    expect(small).toBeGreaterThan(16);
    expect(small).toBeLessThanOrEqual(READ_AHEAD_FILES);
    const mib = new Uint8Array(1024 * 1024);
    expect(
      await mostAhead(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`big${i}.bin`, mib]))),
    ).toBeLessThanOrEqual(READ_AHEAD_BYTES / mib.byteLength);
  });
});
