// The Worker side of e2e/search-opfs.bench.ts (bundled by esbuild, started by search-opfs-page.ts): builds the
// benchmark tree in OPFS, then times the `search` tool over it in a dedicated Worker, as the agent Worker runs it
// (through the File System Access WorkspaceFs of a private workspace) against a plain concurrent read of the same
// files with the raw OPFS API; and reads of large files through the same WorkspaceFs with and without synchronous
// access handles. Runs are interleaved and the medians returned, as scripts/bench-kit.ts's `compare` does in Node.
import { expose } from 'comlink';
import { createFsaWorkspaceFs } from '../../plugin-host/fs';
import { SEARCH_CONCURRENCY } from '../../web/core/contracts/tool-limits';
import { searchTool } from '../../web/core/tools/builtin/search';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
const TREE = 'search-bench-tree';

function source(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++)
    lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
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

export interface SearchFigures {
  searchMs: number;
  plainMs: number;
  output: string;
}

async function compareSearch(args: Record<string, unknown>, runs: number): Promise<SearchFigures> {
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

/** `count` files of `size` bytes read through the WorkspaceFs, 32 in flight, with and without synchronous handles. */
async function compareLargeReads(
  size: number,
  count: number,
  runs: number,
): Promise<{ syncMs: number; getFileMs: number }> {
  const opfs = await navigator.storage.getDirectory();
  const dir = await opfs.getDirectoryHandle(`large-${size}`, { create: true });
  const body = new Uint8Array(size).fill(97);
  for (let i = 0; i < count; i++) {
    const writable = await (await dir.getFileHandle(`f${i}`, { create: true })).createWritable();
    await writable.write(body);
    await writable.close();
  }
  const time = async (fs: ReturnType<typeof createFsaWorkspaceFs>) => {
    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: SEARCH_CONCURRENCY }, async () => {
        while (next < count) if ((await fs.readBytes(`f${next++}`)).length !== size) throw new Error('short read');
      }),
    );
    return performance.now() - t;
  };
  const withSync = createFsaWorkspaceFs(dir, { access: 'read' });
  const withoutSync = createFsaWorkspaceFs(dir, { access: 'read', syncReads: false });
  await time(withSync);
  await time(withoutSync);
  const s: number[] = [];
  const g: number[] = [];
  for (let i = 0; i < runs; i++) {
    g.push(await time(withoutSync));
    s.push(await time(withSync));
  }
  await opfs.removeEntry(`large-${size}`, { recursive: true });
  return { syncMs: median(s), getFileMs: median(g) };
}

export type SearchBenchApi = {
  setup: typeof setup;
  compareSearch: typeof compareSearch;
  compareLargeReads: typeof compareLargeReads;
};
expose({ setup, compareSearch, compareLargeReads } satisfies SearchBenchApi);
