// The page side of e2e/zip-download.bench.ts (bundled by esbuild for the browser): 1,000 source files in OPFS, then
// "Download as .zip" of them (through the File System Access WorkspaceFs, into an OPFS file's writable stream as
// the save picker gives one) against reading the same files through the same WorkspaceFs, 16 in flight. The zip
// Worker is zip-worker.ts bundled and served as /zip-worker.js (esbuild does not bundle `new URL(…)` workers as
// Vite does). Runs are interleaved and the medians returned, as scripts/bench-kit.ts's `compare` does in Node.
import { createFsaWorkspaceFs } from '../../plugin-host/fs';
import { listZipContents, writeWorkspaceZip } from '../../web/core/archive';
import type { ZipWorker } from '../../web/core/archive/zip-off-thread';

const spawnWorker = () => new Worker('/zip-worker.js', { type: 'module', name: 'zip' }) as unknown as ZipWorker;

const FOLDERS = 10;
const FILES_PER_FOLDER = 100;
const TREE = 'zip-bench-tree';

function source(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++)
    lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
  return `${lines.join('\n')}\n`;
}

const opfs = () => navigator.storage.getDirectory();
const tree = async () => (await opfs()).getDirectoryHandle(TREE, { create: true });

async function setup(): Promise<number> {
  const root = await tree();
  for (let d = 0; d < FOLDERS; d++) {
    const dir = await root.getDirectoryHandle(`pkg${d}`, { create: true });
    await Promise.all(
      Array.from({ length: FILES_PER_FOLDER }, async (_, f) => {
        const writable = await (await dir.getFileHandle(`mod${f}.ts`, { create: true })).createWritable();
        await writable.write(source(d * FILES_PER_FOLDER + f));
        await writable.close();
      }),
    );
  }
  return FOLDERS * FILES_PER_FOLDER;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function compareZip(
  runs: number,
): Promise<{ zipMs: number; readMs: number; memoryMs: number; inThreadMs: number; files: number; zipBytes: number }> {
  const fs = createFsaWorkspaceFs(await tree(), { access: 'read' });
  const readAll = async () => {
    const { files } = await listZipContents(fs, '', false);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < files.length) await fs.readBytes(files[next++]!.path);
      }),
    );
    return files.length;
  };
  const download = async (worker: typeof spawnWorker | null = spawnWorker) => {
    const handle = await (await opfs()).getFileHandle('bench.zip', { create: true });
    const progress = await writeWorkspaceZip(
      fs,
      await (handle as unknown as { createWritable(): Promise<WritableStream<Uint8Array>> }).createWritable(),
      { spawnWorker: worker },
    );
    return progress.filesDone;
  };
  // The same download into a sink that drops the bytes: how much of the time is zip.js and deflate.
  const toMemory = () =>
    writeWorkspaceZip(fs, new WritableStream<Uint8Array>({ write: () => undefined }), { spawnWorker });
  const files = await download();
  await readAll();
  const z: number[] = [];
  const r: number[] = [];
  const m: number[] = [];
  const t0: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await readAll();
    r.push(performance.now() - t);
    t = performance.now();
    await download();
    z.push(performance.now() - t);
    t = performance.now();
    await toMemory();
    m.push(performance.now() - t);
    // Zipped on this thread, as before the Worker: what the Worker gains.
    t = performance.now();
    await download(null);
    t0.push(performance.now() - t);
  }
  const zipBytes = (await (await (await opfs()).getFileHandle('bench.zip')).getFile()).size;
  return { zipMs: median(z), readMs: median(r), memoryMs: median(m), inThreadMs: median(t0), files, zipBytes };
}

(globalThis as unknown as { zipBench: unknown }).zipBench = { setup, compareZip };
