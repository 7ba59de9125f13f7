// npm run bench: the `search` tool over a generated 10,000-file tree (100 folders × 100 files of 40 lines, ~3 KB,
// the seed's walk limit exactly) through the Node WorkspaceFs, against
// - a plain sequential recursive read of the same files with node:fs (readdir + readFile awaited one at a time, no
//   path policy, no matching), target ≤ 0.5: the pooled reads must more than pay for the policy and the matching;
// - ripgrep with one thread (`rg -j1`, when installed; skipped with a note otherwise), target ≤ 5;
// - the same files read through the same WorkspaceFs, 32 at a time, with no walk or matching (the floor this code
//   can reach over the port: the path policy's realpath and checks cost about two plain reads per file), ≤ 1.3.
// A literal and a regex search are measured; neither matches, so every line of every file is tested. The fs is made
// as headless `i` makes it (`blockingCalls`: synchronous calls in 4 ms slices); the last line compares that with the
// same search through libuv's thread pool (the backend's default, for the bridge and `hplugin run`).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { compare } from '../../../../scripts/bench-kit';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { WorkspaceFs } from '../../contracts/fs';
import type { ToolContext } from '../../contracts/tools';
import { SEARCH_CONCURRENCY, SEARCH_MAX_FILE_BYTES } from '../../contracts/tool-limits';
import { searchTool } from './search';
import { walk } from './walk';

const FOLDERS = 100;
const FILES_PER_FOLDER = 100;
let base = '';
let fs: WorkspaceFs;
let pooledFs: WorkspaceFs;

function source(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 40; l++)
    lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
  return `${lines.join('\n')}\n`;
}

const RG = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => existsSync(p));

/** ripgrep with one thread over the tree; exit code 1 means "no match", which is what the bench expects. */
function ripgrep(pattern: string, fixed: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(RG!, ['-j1', '--no-config', ...(fixed ? ['-F'] : []), '-e', pattern, base], (error, stdout) => {
      if (error && error.code !== 1) reject(error);
      else if (stdout) reject(new Error(`rg matched: ${stdout.slice(0, 200)}`));
      else resolve();
    });
  });
}

/** Every file through the WorkspaceFs port, `limit` reads in flight: what search costs without walk or matching. */
async function pooledRead(paths: string[], limit: number): Promise<number> {
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < paths.length)
        bytes += (await fs.readBytes(paths[next++]!, { maxBytes: SEARCH_MAX_FILE_BYTES })).length;
    }),
  );
  return bytes;
}

async function plainRead(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await plainRead(full);
    else bytes += (await readFile(full, 'utf8')).length;
  }
  return bytes;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'i-search-bench-'));
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(base, `pkg${String(d).padStart(3, '0')}`);
    await mkdir(dir);
    await Promise.all(
      Array.from({ length: FILES_PER_FOLDER }, (_, f) =>
        writeFile(join(dir, `mod${f}.ts`), source(d * FILES_PER_FOLDER + f)),
      ),
    );
  }
  fs = await createNodeWorkspaceFs({ root: base, access: 'read', blockingCalls: true });
  pooledFs = await createNodeWorkspaceFs({ root: base, access: 'read' });
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const ctx = (on = fs): ToolContext => ({
  fs: on,
  workspaceId: 'bench',
  callId: 'b',
  signal: new AbortController().signal,
});

it('search over 10,000 files vs a plain sequential read of them, and vs ripgrep -j1', async () => {
  const tool = searchTool();
  const literal = { label: 'search (literal)', run: () => tool.execute({ pattern: 'needle_not_present' }, ctx()) };
  const regex = {
    label: 'search (regex)',
    run: () => tool.execute({ pattern: 'handler\\d+_99\\b', regex: true }, ctx()),
  };
  for (const side of [literal, regex]) {
    const check = await side.run();
    if (check.error || !check.output.startsWith('No matches') || check.output.includes('stopped'))
      throw new Error(`unexpected search output: ${check.output}`);
  }
  const sequential = { label: 'plain sequential read', run: () => plainRead(base) };
  const paths = (await walk(fs, { start: '' })).files.map((f) => f.path);
  const pooled = { label: 'WorkspaceFs reads, 32 in flight', run: () => pooledRead(paths, SEARCH_CONCURRENCY) };
  await compare('search literal vs WorkspaceFs pooled reads, 10k files', pooled, literal, {
    runs: 5,
    warmup: 1,
    target: 1.3,
  });
  await compare('search literal vs sequential read, 10k files', sequential, literal, {
    runs: 5,
    warmup: 1,
    target: 0.5,
  });
  await compare('search regex vs sequential read, 10k files', sequential, regex, { runs: 5, warmup: 1, target: 0.5 });
  const overPool = {
    label: 'search (literal), fs through the thread pool',
    run: () => tool.execute({ pattern: 'needle_not_present' }, ctx(pooledFs)),
  };
  await compare('search literal, CLI blocking calls vs thread pool, 10k files', overPool, literal, {
    runs: 5,
    warmup: 1,
  });
  if (!RG) {
    console.log('BENCH search vs rg -j1: skipped, ripgrep (rg) is not installed');
    return;
  }
  await compare(
    'search literal vs rg -j1, 10k files',
    { label: 'rg -j1 -F', run: () => ripgrep('needle_not_present', true) },
    literal,
    { runs: 5, warmup: 1, target: 5 },
  );
  await compare(
    'search regex vs rg -j1, 10k files',
    { label: 'rg -j1', run: () => ripgrep('handler\\d+_99\\b', false) },
    regex,
    { runs: 5, warmup: 1, target: 5 },
  );
});
