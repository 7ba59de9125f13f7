// The page side of e2e/search-opfs.bench.ts (bundled by esbuild for the browser): builds the benchmark tree in
// OPFS, then times the `search` tool over it (through the File System Access WorkspaceFs, as private workspaces
// use it) against a plain concurrent read of the same files with the raw OPFS API. Runs are interleaved and the
// medians returned, as scripts/bench-kit.ts's `compare` does in Node.
import { createFsaWorkspaceFs } from '../../plugin-host/fs';
import { SEARCH_CONCURRENCY } from '../../web/core/tools/builtin/limits';
import { searchTool } from '../../web/core/tools/builtin/search';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const TREE = 'search-bench-tree';

function source(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++) lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
  return `${lines.join('\n')}\n`;
}

async function tree(): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(TREE, { create: true });
}

async function setup(): Promise<number> {
  const root = await tree();
  for (let d = 0; d < FOLDERS; d++) {
    const dir = await root.getDirectoryHandle(`pkg${String(d).padStart(3, '0')}`, { create: true });
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

/** Lists every folder and reads every file as text, SEARCH_CONCURRENCY reads in flight: no path policy, no walk
 * rules, no matching. */
async function plainRead(): Promise<number> {
  const files: FileSystemFileHandle[] = [];
  const folders: FileSystemDirectoryHandle[] = [await tree()];
  while (folders.length > 0) {
    for await (const handle of (folders.pop() as IterableDirectoryHandle).values()) {
      if (handle.kind === 'directory') folders.push(handle as FileSystemDirectoryHandle);
      else files.push(handle as FileSystemFileHandle);
    }
  }
  let next = 0;
  let chars = 0;
  await Promise.all(
    Array.from({ length: SEARCH_CONCURRENCY }, async () => {
      while (next < files.length) chars += (await (await files[next++]!.getFile()).text()).length;
    }),
  );
  return chars;
}

// TypeScript's DOM lib does not type the async iteration of directory handles (as in plugin-host/fs).
type IterableDirectoryHandle = FileSystemDirectoryHandle & { values(): AsyncIterableIterator<FileSystemHandle> };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function compareSearch(args: Record<string, unknown>, runs: number): Promise<{ searchMs: number; plainMs: number; output: string }> {
  const fs = createFsaWorkspaceFs(await tree(), { access: 'read' });
  // The 10 s budget is for people; here the whole tree must be searched to compare like with like.
  const tool = searchTool({ timeLimitMs: 600_000 });
  const ctx = { fs, workspaceId: 'bench', callId: 'b', signal: new AbortController().signal };
  const output = (await tool.execute(args, ctx)).output;
  await plainRead();
  const s: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await plainRead();
    p.push(performance.now() - t);
    t = performance.now();
    await tool.execute(args, ctx);
    s.push(performance.now() - t);
  }
  return { searchMs: median(s), plainMs: median(p), output };
}

(globalThis as unknown as { searchBench: unknown }).searchBench = { setup, compareSearch };
